import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Keeps kept-alive connections open for up to `lingerMs` once shutdown starts, before the server stops
 * listening. Node's `server.close()` drops idle kept-alive connections at once, so a request a client
 * sent on one just then met a reset (ECONNRESET) instead of an answer. Meanwhile Fastify answers every
 * request with 503 and `Connection: close` (its `return503OnClosing`), each connection closes after its
 * answer, and the wait ends early once none is left. Registered after the routes: their own preClose
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

  app.addHook('preClose', async () => {
    if (lingerMs === 0 || open.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => (allClosed = resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, lingerMs))),
    ]);
    clearTimeout(timer);
  });
}
