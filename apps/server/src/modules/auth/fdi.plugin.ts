import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { AuthModule } from './auth.module.ts';
import { emailVerificationRoutes } from './email-verification.routes.ts';
import { FdiBadRequest } from './fdi.http.ts';
import { assertCleanFdiInput } from './fdi.input.ts';
import { mfaRoutes } from './mfa.routes.ts';
import { multitenancyRoutes } from './multitenancy.routes.ts';
import { oauth2ProviderRoutes } from './oauth2-provider.routes.ts';
import { passwordlessRoutes } from './passwordless.routes.ts';
import { SessionError } from './session.errors.ts';
import { clearSessionTokens } from './session.transport.ts';
import { sessionRoutes } from './session.routes.ts';
import { samlRoutes } from './saml.routes.ts';
import { thirdPartyRoutes } from './thirdparty.routes.ts';
import { webauthnRoutes } from './webauthn.routes.ts';

/**
 * The SuperTokens Frontend Driver Interface (FDI 4.1; the WebAuthn recipe at 4.2) under `/auth`, as an encapsulated plugin with its
 * own error handling: SuperTokens' wire format (status-field bodies, 401 "try refresh token", 403 claim
 * errors, 400 `{message}`), never our `{detail}` envelope. Register with `{ prefix: '/auth' }`.
 */
export async function fdiPlugin(
  app: FastifyInstance,
  options: { auth: AuthModule; db: Database; webDistDir: string },
): Promise<void> {
  const { auth, db } = options;

  // Refresh and sign-out arrive without a body; a JSON content type with an empty body is `{}` here.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new FdiBadRequest('The request body is not valid JSON'), undefined);
    }
  });

  // One input rule for every handler below (fdi.input.ts): bad text is a 400 before any handler runs.
  app.addHook('preHandler', async (request) => {
    // A route may allow longer strings (the SAML assertion consumer service: a signed response).
    const { maxStringLength } = request.routeOptions.config as { maxStringLength?: number };
    assertCleanFdiInput('query', request.query);
    assertCleanFdiInput('path', request.params);
    assertCleanFdiInput('body', request.body, maxStringLength);
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof SessionError) {
      if (error.kind === 'INVALID_CLAIM') {
        return reply
          .code(403)
          .send({ message: 'invalid claim', claimValidationErrors: error.extra.claimValidationErrors ?? [] });
      }
      if (error.extra.clearTokens) clearSessionTokens(reply, 'both', auth.cookies);
      return reply.code(401).send({ message: error.message });
    }
    if (error instanceof FdiBadRequest) return reply.code(400).send({ message: error.message });
    const status = (error as FastifyError).statusCode ?? 500;
    if (status >= 400 && status < 500 && status !== 401 && status !== 403) {
      return reply.code(status).send({ message: error.message });
    }
    request.log.error({ err: error }, 'sign-in request failed');
    return reply.code(500).send({ message: 'Internal error' });
  });

  // `/auth/*` is also where the web app's sign-in pages live (websiteBasePath = apiBasePath = /auth).
  // SDK calls never ask for HTML, so a browser navigation here (a magic link, a provider callback, a
  // reload of /auth/mfa) gets the single-page app when it is served by this process.
  const indexHtml = path.join(options.webDistDir, 'index.html');
  app.setNotFoundHandler((request, reply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      (request.headers.accept ?? '').includes('text/html');
    const sendFile = (reply as unknown as { sendFile?: (file: string) => unknown }).sendFile;
    if (wantsPage && typeof sendFile === 'function' && existsSync(indexHtml)) {
      reply.header('cache-control', 'no-cache').type('text/html');
      return sendFile.call(reply, 'index.html');
    }
    return reply.code(404).send({ message: 'Not found' });
  });

  sessionRoutes(app, auth);
  passwordlessRoutes(app, auth);
  thirdPartyRoutes(app, auth);
  samlRoutes(app, auth);
  multitenancyRoutes(app, auth);
  mfaRoutes(app, auth);
  emailVerificationRoutes(app, auth, db);
  oauth2ProviderRoutes(app, auth);
  webauthnRoutes(app, auth);
}
