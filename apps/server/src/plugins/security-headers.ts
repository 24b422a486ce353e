import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Features the web app never uses, switched off for it and anything it might embed. */
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), browsing-topics=()';
/** Helmet's own HSTS value (one year, subdomains), sent only over HTTPS. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** A request that carries a session (bearer header or session cookie): its JSON is personal. */
function carriesSession(request: FastifyRequest): boolean {
  return (
    Boolean(request.headers.authorization) || /(?:^|;\s*)sAccessToken=/.test(request.headers.cookie ?? '')
  );
}

/**
 * Headers helmet does not cover the way we need: Permissions-Policy on everything; HSTS only when the
 * request came over HTTPS (request.protocol honours X-Forwarded-Proto only from TRUST_PROXY proxies),
 * since over plain HTTP browsers ignore it and a development server on localhost must not pin HTTPS;
 * and `Cache-Control: no-store` on signed-in JSON, so no shared or browser cache keeps one person's
 * data. Both first two are set in onRequest so hijacked replies (progress streams) carry them too.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
  app.addHook('onSend', async (request, reply) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.startsWith('application/json') && !reply.hasHeader('cache-control') && carriesSession(request)) {
      reply.header('cache-control', 'no-store');
    }
  });
}
