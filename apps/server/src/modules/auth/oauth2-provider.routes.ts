import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AUTH_BASE_PATH, type AuthModule } from './auth.module.ts';
import { completedFactors, globalClaimErrors } from './claims.ts';
import { FdiBadRequest, parseBody, plainRoute, sessionOf } from './fdi.http.ts';
import { END_SESSION_CONTINUE_PATH, PROVIDER_PATHS, type LoginOutcome } from './oauth2-provider.service.ts';
import { clearSessionTokens, readAccessToken } from './session.transport.ts';

const Challenge = z.string().min(1).max(512);
const LoginQuery = z.object({ loginChallenge: Challenge });
const LogoutBody = z.object({ logoutChallenge: Challenge });
const LogoutQuery = z.object({ logoutChallenge: Challenge });

const REFUSALS: Record<Exclude<LoginOutcome['kind'], 'continue'>, string> = {
  'unknown-challenge': 'This sign-in request has expired or does not exist. Start again from the app.',
  'other-browser': 'This sign-in request was started in another browser. Start again from the app.',
  'other-person': 'This sign-in request was already completed by someone else.',
  'refused-client': 'This app may not use Sign in with Lumina.',
};

/**
 * "Sign in with Lumina" (OAuth2Provider recipe, FDI 4.1): oidc-provider answers the OAuth and OpenID
 * routes itself (`/oauth/auth`, `/oauth/token`, `/oauth/userinfo`, `/oauth/revoke`, `/oauth/introspect`,
 * `/oauth/end_session`, `/oauth/jwks.json`, discovery) in OAuth's error shape (`{error, error_description}`);
 * the SDK's own routes (`/oauth/login/info`, `/oauth/login`, `/oauth/logout`) answer in the FDI's.
 */
export function oauth2ProviderRoutes(app: FastifyInstance, auth: AuthModule): void {
  const oauth = auth.oauthProvider;

  // The provider reads its own bodies (form-encoded), so this child context parses none of them.
  void app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    for (const { url, methods } of PROVIDER_PATHS) {
      child.route({
        method: methods,
        url,
        schema: { hide: true },
        handler: async (request, reply) => {
          reply.hijack();
          await oauth.handle(request.raw, reply.raw, AUTH_BASE_PATH);
        },
      });
    }
  });

  plainRoute(app, 'GET', '/oauth/login/info', async (request, reply) => {
    const { loginChallenge } = parseBody(LoginQuery, request.query);
    const info = await oauth.loginInfo(loginChallenge);
    if (!info) return reply.code(400).send({ message: REFUSALS['unknown-challenge'] });
    return { status: 'OK', info };
  });

  plainRoute(app, 'GET', '/oauth/login', async (request, reply) => {
    const { loginChallenge } = parseBody(LoginQuery, request.query);
    const { session } = await sessionOf(auth, request, { required: true });
    const factors = Object.values(completedFactors(session.payload));
    const outcome = await oauth.continueLogin(request.raw, reply.raw, {
      loginChallenge,
      userId: session.userId,
      sessionHandle: session.handle,
      claimsPending: globalClaimErrors(auth.config.auth, session.payload).length > 0,
      authTime: factors.length > 0 ? Math.max(...factors) : session.payload.iat,
    });
    if (outcome.kind !== 'continue') return reply.code(400).send({ message: REFUSALS[outcome.kind] });
    return { frontendRedirectTo: outcome.frontendRedirectTo };
  });

  plainRoute(app, 'POST', '/oauth/logout', async (request, reply) => {
    const { logoutChallenge } = parseBody(LogoutBody, request.body);
    const next = await oauth.confirmLogout(logoutChallenge);
    if (!next) throw new FdiBadRequest('This sign-out request has expired or does not exist.');
    // Logging out of the apps signs out of Lumina too; an expired access token is refreshed first (401).
    if (readAccessToken(request)) {
      const { session, mode } = await sessionOf(auth, request, { required: true });
      await auth.sessions.revoke(session.handle, 'signout');
      clearSessionTokens(reply, mode, auth.cookies);
    }
    return { frontendRedirectTo: next };
  });

  plainRoute(app, 'GET', END_SESSION_CONTINUE_PATH, async (request, reply) => {
    const { logoutChallenge } = parseBody(LogoutQuery, request.query);
    const step = await oauth.endSessionStep(logoutChallenge);
    if (!step) throw new FdiBadRequest('This sign-out request has expired or does not exist.');
    reply.header('cache-control', 'no-store');
    if (step.kind === 'ended') return reply.redirect(step.location, 303);
    return reply.header('content-security-policy', step.csp).type('text/html').send(step.html);
  });
}
