import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { AUTH_BASE_PATH, type AuthModule } from './auth.module.ts';
import { allowedDomainsClaims, EV_CLAIM } from './claims.ts';
import { EmailVerificationService } from './email-verification.service.ts';
import { parseBody, plainRoute, sendTokens, sessionOf, tenantRoute } from './fdi.http.ts';
import type { Session } from './session.service.ts';
import type { TransferMode } from './session.transport.ts';

const VerifyBody = z.object({ method: z.literal('token'), token: z.string().min(1).max(200) });

/**
 * Email-verification recipe (docs/reference/supertokens-fdi/CONTRACT.md §7; claim `st-ev`). Passwordless emails are verified by the
 * code itself; a method without an email counts as verified.
 */
export function emailVerificationRoutes(app: FastifyInstance, auth: AuthModule, db: Database): void {
  const verification = new EmailVerificationService(db, auth.clock);

  async function isVerified(session: Session): Promise<{ verified: boolean; email: string | null }> {
    const method = await auth.users.loginMethod(session.recipeUserId);
    return { verified: !method?.email || method.verified, email: method?.email ?? null };
  }

  async function syncClaim(reply: FastifyReply, session: Session, mode: TransferMode, verified: boolean) {
    const now = auth.clock.now();
    // A just-verified address may now prove the person's email domain (st-t-dmns).
    const domains = verified
      ? allowedDomainsClaims(
          auth.config.auth,
          session.tenantId,
          await auth.users.loginMethod(session.recipeUserId),
          now,
        )
      : {};
    const { tokens } = await auth.sessions.updateClaims(session.handle, {
      [EV_CLAIM]: { v: verified, t: now },
      ...domains,
    });
    sendTokens(auth, reply, mode, tokens);
  }

  plainRoute(app, 'GET', '/user/email/verify', async (request, reply) => {
    const { session, mode } = await sessionOf(auth, request, { required: true });
    const { verified } = await isVerified(session);
    await syncClaim(reply, session, mode, verified);
    return { status: 'OK', isVerified: verified };
  });

  const sendToken = async (request: FastifyRequest, reply: FastifyReply) => {
    const { session, mode } = await sessionOf(auth, request, { required: true });
    const { verified, email } = await isVerified(session);
    if (verified || !email) {
      await syncClaim(reply, session, mode, true);
      return { status: 'EMAIL_ALREADY_VERIFIED_ERROR' };
    }
    const token = await verification.issue({
      loginMethodId: session.recipeUserId,
      email,
      tenantId: session.tenantId,
    });
    const link = `${auth.config.auth.webUrl}${AUTH_BASE_PATH}/verify-email?token=${token}&tenantId=${encodeURIComponent(session.tenantId)}`;
    await auth.mailer.send({
      to: email,
      subject: 'Verify your email for Lumina',
      text: `Open this link to verify your email for Lumina:\n${link}\n\nIt expires in 24 hours.`,
      html: `<p>Open this link to verify your email for Lumina:</p><p><a href="${link}">Verify email</a></p><p>It expires in 24 hours.</p>`,
      link,
    });
    await syncClaim(reply, session, mode, false);
    return { status: 'OK' };
  };
  plainRoute(app, 'POST', '/user/email/verify/token', sendToken);
  plainRoute(app, 'POST', '/:tenantId/user/email/verify/token', sendToken);

  tenantRoute(app, 'POST', '/user/email/verify', async (request, reply) => {
    const body = parseBody(VerifyBody, request.body);
    const row = await verification.take(body.token);
    const method = row ? await auth.users.loginMethod(row.loginMethodId) : undefined;
    if (!row || !method || method.email?.toLowerCase() !== row.email.toLowerCase()) {
      return { status: 'EMAIL_VERIFICATION_INVALID_TOKEN_ERROR' };
    }
    await auth.users.setVerified(method.id);
    const current = await sessionOf(auth, request, { required: false });
    if (current && current.session.recipeUserId === method.id)
      await syncClaim(reply, current.session, current.mode, true);
    return { status: 'OK', user: { id: method.userId, email: row.email } };
  });
}
