import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimited } from '../limits/limits.plugin.ts';
import type { StreamSlots } from '../limits/stream-slots.ts';
import type { JobsService } from './jobs.service.ts';
import type { ProgressBus } from './progress.bus.ts';

/** A fallback re-check that also catches changes made by other processes (separate workers). */
const RECHECK_MS = 1500;
/** Comment lines keep proxies from closing an idle stream; each also refreshes the stream's slot. */
const PING_MS = 15_000;
/** When a person has every stream slot in use, a slot frees only when a tab closes: retry after this. */
const FULL_RETRY_AFTER_SECONDS = 10;
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
};

/**
 * Server-Sent Events for `/api/progress/stream`: a full snapshot on connect and after every change
 * (`event: progress`, data = `{jobs}`), pushed at once for changes in this process and within
 * RECHECK_MS for changes elsewhere. Streams end when the server shuts down. A person may have
 * `slots`' maximum open at once (across processes); one more is refused with 429 before it starts.
 * HEAD gets the stream's headers and nothing else: a response to HEAD has no body, so a stream opened
 * for it would never send anything and hold a slot until the client gave up.
 */
export function progressStreams(
  app: FastifyInstance,
  service: Pick<JobsService, 'progress' | 'version'>,
  bus: ProgressBus,
  slots: StreamSlots,
) {
  const open = new Set<() => void>();
  // Every socket that carried a stream, until it closes. A client that went away often leaves its
  // socket open a while (fetch keeps it ~4 s); app.close() would wait for each, so shutdown drops them.
  const sockets = new Set<Socket>();
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
    for (const socket of sockets) socket.destroySoon();
  });

  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'HEAD') {
      void reply.headers(STREAM_HEADERS);
      return;
    }
    const userId = request.user.id;
    const slot = await slots.acquire(userId);
    if (!slot) {
      throw rateLimited(
        FULL_RETRY_AFTER_SECONDS,
        `You already have ${slots.maxPerUser} live progress views open. Close another Lumina tab and try again.`,
      );
    }
    reply.hijack();
    const raw = reply.raw;
    // Headers set by earlier hooks (security headers, CORS, request id) still apply.
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      ...STREAM_HEADERS,
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    raw.write('retry: 2000\n\n');

    let lastVersion = '';
    let busy = false;
    let again = false;
    let closed = false;
    const push = async () => {
      if (closed) return;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        do {
          again = false;
          const version = await service.version(userId);
          if (version === lastVersion || closed) continue;
          lastVersion = version;
          const jobs = await service.progress(userId);
          if (!closed) raw.write(`event: progress\ndata: ${JSON.stringify({ jobs })}\n\n`);
        } while (again && !closed);
      } catch (err) {
        request.log.warn({ err }, 'progress stream update failed');
      } finally {
        busy = false;
      }
    };

    const unsubscribe = bus.subscribe(userId, () => void push());
    const recheck = setInterval(() => void push(), RECHECK_MS);
    const ping = setInterval(() => {
      raw.write(': ping\n\n');
      slots.heartbeat(slot).catch((err: unknown) => request.log.warn({ err }, 'stream slot refresh failed'));
    }, PING_MS);
    const socket = request.raw.socket;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const end = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(recheck);
      clearInterval(ping);
      open.delete(end);
      raw.end();
      slots.release(slot).catch((err: unknown) => request.log.warn({ err }, 'stream slot release failed'));
    };
    open.add(end);
    request.raw.on('close', end);
    // The client may have gone while the slot was being taken; 'close' would not fire again.
    if (request.raw.destroyed || socket.destroyed) end();
    await push();
  };
}
