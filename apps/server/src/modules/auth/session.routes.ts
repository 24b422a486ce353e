import type { FastifyInstance } from 'fastify';
import type { AuthModule } from './auth.module.ts';
import { assertTrustedOrigin, plainRoute, sendTokens, sessionOf } from './fdi.http.ts';
import { SessionError } from './session.errors.ts';
import { clearSessionTokens, passesAntiCsrf, readRefreshToken } from './session.transport.ts';

/** Session recipe (docs/reference/supertokens-fdi/CONTRACT.md §2): JWKS, refresh, sign-out. */
export function sessionRoutes(app: FastifyInstance, auth: AuthModule): void {
  plainRoute(app, 'GET', '/jwt/jwks.json', async (_request, reply) => {
    reply.header('cache-control', 'max-age=60, must-revalidate');
    return auth.keys.jwks();
  });

  plainRoute(app, 'POST', '/session/refresh', async (request, reply) => {
    const found = readRefreshToken(request);
    if (!found) {
      // Anonymous visitors land here on first load: a clean 401 with the clear set.
      clearSessionTokens(reply, 'both', auth.cookies);
      return reply.code(401).send({ message: 'unauthorised' });
    }
    assertTrustedOrigin(auth, request, found.mode);
    try {
      const { tokens } = await auth.sessions.refresh(found.token, (sessionToken) =>
        passesAntiCsrf(request, found.mode, auth.cookies, sessionToken, true),
      );
      sendTokens(auth, reply, found.mode, tokens);
      return {};
    } catch (err) {
      if (!(err instanceof SessionError)) throw err;
      clearSessionTokens(reply, found.mode, auth.cookies);
      return reply.code(401).send({ message: err.message });
    }
  });

  plainRoute(app, 'POST', '/signout', async (request, reply) => {
    const { session, mode } = await sessionOf(auth, request, { required: true });
    await auth.sessions.revoke(session.handle, 'signout');
    clearSessionTokens(reply, mode, auth.cookies);
    return { status: 'OK' };
  });
}
