import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { AUTH_BASE_PATH, type AuthModule } from './auth.module.ts';
import { clientAddress } from '../limits/client-address.ts';
import { FdiBadRequest } from './fdi.http.ts';
import { RATE_LIMITED_MESSAGE } from './sign-in.ts';
import type { SamlSignIn } from './saml.service.ts';

/** The largest SAMLResponse we read (base64; real ones with a certificate chain are tens of KB). */
export const SAML_RESPONSE_MAX_LENGTH = 262_144;

const LoginQuery = z.object({
  tenantId: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/)
    .default('public'),
  redirectURI: z.string().min(1).max(2000),
  // The web SDK's state: base64 of a small JSON object (with the page to return to, at most).
  state: z.string().min(1).max(4000),
});

const AcsForm = z.object({
  SAMLResponse: z.string().min(1).max(SAML_RESPONSE_MAX_LENGTH),
  RelayState: z.string().min(1).max(200),
});

/**
 * SAML service provider routes (docs/decisions.md "SAML"): our metadata, the start of a sign-in (the
 * SDK's authorisation URL), and the assertion consumer service the IdP posts to. 404 when no IdP is set.
 */
export function samlRoutes(app: FastifyInstance, auth: AuthModule): void {
  const { config } = auth;
  const origins = [
    ...new Set([config.auth.webUrl, config.publicUrl, ...config.corsOrigins].map((u) => new URL(u).origin)),
  ];

  function configured(reply: FastifyReply): SamlSignIn | undefined {
    if (!auth.saml) {
      void reply.code(404).send({ message: 'SAML sign-in is not configured' });
      return undefined;
    }
    return auth.saml;
  }

  app.get('/saml/metadata', { schema: { hide: true } }, async (_request, reply) => {
    const saml = configured(reply);
    if (!saml) return reply;
    return reply.type('application/samlmetadata+xml; charset=utf-8').send(saml.metadata());
  });

  app.get('/saml/login', { schema: { hide: true } }, async (request, reply) => {
    const saml = configured(reply);
    if (!saml) return reply;
    const parsed = LoginQuery.safeParse(request.query ?? {});
    if (!parsed.success) {
      throw new FdiBadRequest(`query.${parsed.error.issues[0]?.path.join('.') ?? ''}: is missing or invalid`);
    }
    const { tenantId, redirectURI, state } = parsed.data;
    if (!auth.tenants.get(tenantId)?.thirdPartyProviders.includes(saml.id)) {
      throw new FdiBadRequest(`the provider ${saml.id} could not be found in the configuration`);
    }
    if (!origins.some((origin) => redirectURI === `${origin}${AUTH_BASE_PATH}/callback/${saml.id}`)) {
      throw new FdiBadRequest('redirectURI is not an allowed callback address');
    }
    // Each start stores a row: limited per IP like the other sign-in starts (AUTH_RATE_LIMIT_PER_IP).
    const { perIp, windowSeconds } = config.auth.rateLimit;
    const limit = await auth.rateLimiter.hit(`saml-login:ip:${clientAddress(request)}`, perIp, windowSeconds);
    if (!limit.allowed) {
      return reply
        .code(429)
        .header('retry-after', String(limit.retryAfterSeconds))
        .send({ message: RATE_LIMITED_MESSAGE });
    }
    return reply.redirect(await saml.start({ tenantId, redirectUri: redirectURI, state }), 302);
  });

  // The IdP's HTTP-POST binding: a form the browser posts. Garbage is a 400; a response that does not
  // check out goes back to the web callback page with `error` (the card then says sign-in failed).
  app.post(
    '/saml/acs',
    { schema: { hide: true }, config: { maxStringLength: SAML_RESPONSE_MAX_LENGTH } },
    async (request, reply) => {
      const saml = configured(reply);
      if (!saml) return reply;
      const parsed = AcsForm.safeParse(request.body ?? {});
      if (!parsed.success) {
        throw new FdiBadRequest('The sign-in response from the identity provider is missing or malformed.');
      }
      const result = await saml.consume(parsed.data);
      if (result.location) return reply.redirect(result.location, 303);
      if (!result.ok) {
        throw new FdiBadRequest(
          'This sign-in response is not for a sign-in under way here (already used or expired). Please sign in again.',
        );
      }
      return reply;
    },
  );
}
