import type { Socket } from 'node:net';
import type { ErrorBody } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';

/**
 * Keeps kept-alive connections open for up to `lingerMs` once shutdown starts, before the server stops
 * listening. Node's `server.close()` drops idle kept-alive connections at once, so a request a client
 * sent on one just then met a reset (ECONNRESET) instead of an answer. Meanwhile every request is
 * answered 503 in the error body shape, with Retry-After, and Fastify adds `Connection: close` while it
 * closes (the app turns off its own `return503OnClosing`, whose body has no `detail`); each connection
 * closes after its answer, and the wait ends early once none is left. Registered after the routes: their own preClose
 * hooks (ending the progress streams) must run first, or those connections would hold the wait open.
 */
export function registerConnectionDrain(app: FastifyInstance, lingerMs: number): void {
  const open = new Set<Socket>();
  let allClosed: (() => void) | undefined;
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      if (open.size === 0) allClosed?.();
    });
  });

  let closing = false;
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    // Sent as text: a route's own 503 schema (readiness) would not fit this body.
    const body: ErrorBody = {
      detail: 'Lumina is restarting. Please try again in a moment.',
      code: 'SERVICE_UNAVAILABLE',
      requestId: request.id,
    };
    return reply
      .code(503)
      .header('retry-after', '1')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(body));
  });

  app.addHook('preClose', async () => {
    closing = true;
    if (lingerMs === 0 || open.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => (allClosed = resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, lingerMs))),
    ]);
    clearTimeout(timer);
  });
}
