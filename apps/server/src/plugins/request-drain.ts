import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Makes `app.close()` wait until every request's handler has finished, not only until every socket
 * has closed. Fastify's close resolves once the last connection ends, but a request whose client went
 * away (a load generator stopping, a proxy timing out) keeps running its handler: closing the database
 * then failed it half way ("Cannot use a pool after calling end on the pool"). Waits at most
 * `timeoutMs`, then lets shutdown go on.
 */
export function registerRequestDrain(app: FastifyInstance, timeoutMs: number): void {
  const running = new Set<FastifyRequest>();
  let drained: (() => void) | undefined;
  const done = (request: FastifyRequest) => {
    running.delete(request);
    if (running.size === 0) drained?.();
  };

  app.addHook('onRequest', async (request, reply) => {
    running.add(request);
    // A hijacked reply (an event stream) skips onSend, and onResponse too when its socket is destroyed.
    reply.raw.once('close', () => {
      if (reply.sent) done(request);
    });
  });
  // onSend runs when a handler (or the error handler) has its answer, even if the client has gone.
  app.addHook('onSend', async (request) => done(request));
  app.addHook('onResponse', async (request) => done(request));

  app.addHook('onClose', async () => {
    if (running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => (drained = resolve)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
    ]);
    clearTimeout(timer);
    if (running.size > 0) {
      app.log.warn({ requests: running.size }, 'shutting down with requests still running');
    }
  });
}
