import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { AuthModule } from '../modules/auth/auth.module.ts';
import { ALLOWED_DOMAINS_CLAIM, globalClaimErrors } from '../modules/auth/claims.ts';
import { SessionError } from '../modules/auth/session.errors.ts';
import type { Session } from '../modules/auth/session.service.ts';
import { fromTrustedOrigin, passesAntiCsrf, readAccessToken } from '../modules/auth/session.transport.ts';

/** The signed-in user of a product request (set by `app.requireUser`). */
export interface AuthUser {
  id: string;
  tenantId: string;
  sessionHandle: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler for product routes that need a signed-in user: a valid access token (bearer header or
     * `sAccessToken` cookie) and the global claims (st-mfa, st-ev when required, st-t-dmns when the tenant restricts domains). Sets `request.user`.
     * 401 `{detail}` without a valid session (the web SDK refreshes and retries), 403 with
     * `claimValidationErrors` when a claim fails.
     */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** Only meaningful behind `app.requireUser`. */
    user: AuthUser;
    session: Session | null;
  }
}

export function registerAuthGuard(app: FastifyInstance, auth: AuthModule): void {
  app.decorateRequest('user', null as unknown as AuthUser);
  app.decorateRequest('session', null);
  app.decorate('requireUser', async (request: FastifyRequest, reply: FastifyReply) => {
    const found = readAccessToken(request);
    if (!found) throw new AppError('UNAUTHORISED', 'Please sign in to continue.');
    if (!fromTrustedOrigin(request, found.mode, auth.cookies)) {
      throw new AppError('FORBIDDEN', 'This request came from a page on another site, so it was refused.');
    }
    let session: Session;
    try {
      session = await auth.sessions.verify(found.token);
    } catch (err) {
      if (err instanceof SessionError)
        throw new AppError('UNAUTHORISED', 'Your session has expired. Please sign in again.');
      throw err;
    }
    if (!passesAntiCsrf(request, found.mode, auth.cookies, session.payload.antiCsrfToken)) {
      throw new AppError('UNAUTHORISED', 'Your session could not be confirmed. Please sign in again.');
    }
    const claimValidationErrors = globalClaimErrors(auth.config.auth, session.payload);
    if (claimValidationErrors.length > 0) {
      // The SDK's interceptor reads `claimValidationErrors` from a 403; the product's `detail` rides along.
      reply
        .code(403)
        .serializer(JSON.stringify)
        .send({
          detail: claimValidationErrors.some((e) => e.id === ALLOWED_DOMAINS_CLAIM)
            ? 'This organisation only admits email addresses of its own domains. Sign out and sign in with one of those.'
            : 'Please finish signing in to continue.',
          code: 'FORBIDDEN',
          requestId: request.id,
          message: 'invalid claim',
          claimValidationErrors,
        });
      return reply;
    }
    request.session = session;
    request.user = { id: session.userId, tenantId: session.tenantId, sessionHandle: session.handle };
  });
}
