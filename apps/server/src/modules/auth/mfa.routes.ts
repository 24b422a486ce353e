import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthModule } from './auth.module.ts';
import { factorProgress, MFA_CLAIM } from './claims.ts';
import { parseBody, plainRoute, sendTokens, sessionOf } from './fdi.http.ts';
import { invalidClaim } from './session.errors.ts';
import { assertMaySetUp, completeFactorInSession, mfaState } from './sign-in.ts';

const DeviceBody = z.object({ deviceName: z.string().min(1).max(100).optional() });
const VerifyDeviceBody = z.object({ deviceName: z.string().min(1).max(100), totp: z.string().max(20) });
const VerifyBody = z.object({ totp: z.string().max(20) });
const RemoveBody = z.object({ deviceName: z.string().min(1).max(100) });

/**
 * Multi-factor (docs/reference/supertokens-fdi/CONTRACT.md §8) and TOTP (§9). Every route needs a session and skips the global claim
 * validators; `PUT /mfa/info` re-syncs `st-mfa` into the session.
 */
export function mfaRoutes(app: FastifyInstance, auth: AuthModule): void {
  plainRoute(app, 'PUT', '/mfa/info', async (request, reply) => {
    const { session, mode } = await sessionOf(auth, request, { required: true });
    const state = await mfaState(auth, session);
    if (!state) {
      await auth.sessions.revoke(session.handle, 'user-deleted');
      return reply.code(401).send({ message: 'unauthorised' });
    }
    const { tokens } = await auth.sessions.updateClaims(session.handle, { [MFA_CLAIM]: state.claim });
    sendTokens(auth, reply, mode, tokens);

    // The session's own login method first, then the rest.
    const ordered = [...state.user.loginMethods].sort((a, b) =>
      a.recipeUserId === session.recipeUserId ? -1 : b.recipeUserId === session.recipeUserId ? 1 : 0,
    );
    const emails = [...new Set(ordered.flatMap((m) => (m.email ? [m.email] : [])))];
    const phones = [...new Set(ordered.flatMap((m) => (m.phoneNumber ? [m.phoneNumber] : [])))];
    return {
      status: 'OK',
      factors: { next: state.next, alreadySetup: state.alreadySetup, allowedToSetup: state.allowedToSetup },
      emails: { 'otp-email': emails, 'link-email': emails, webauthn: emails },
      phoneNumbers: { 'otp-phone': phones, 'link-phone': phones },
    };
  });

  plainRoute(app, 'POST', '/totp/device', async (request) => {
    const { session } = await sessionOf(auth, request, { required: true });
    const body = parseBody(DeviceBody, request.body);
    const state = await assertMaySetUp(auth, session, 'totp');
    const label = state.user.emails[0] ?? state.user.phoneNumbers[0] ?? state.user.id;
    const device = await auth.mfa.createDevice(session.userId, label, body.deviceName);
    return device ? { status: 'OK', ...device } : { status: 'DEVICE_ALREADY_EXISTS_ERROR' };
  });

  plainRoute(app, 'POST', '/totp/device/verify', async (request, reply) => {
    const current = await sessionOf(auth, request, { required: true });
    const body = parseBody(VerifyDeviceBody, request.body);
    const verified = await auth.mfa.deviceVerified(current.session.userId, body.deviceName);
    if (verified === undefined) return { status: 'UNKNOWN_DEVICE_ERROR' };
    if (!verified) await assertMaySetUp(auth, current.session, 'totp');
    const result = await auth.mfa.checkTotp(current.session.userId, body.totp.trim(), body.deviceName);
    if (result.status !== 'OK') return result;
    await completeFactorInSession(auth, reply, current, 'totp');
    return { status: 'OK', wasAlreadyVerified: result.wasAlreadyVerified };
  });

  plainRoute(app, 'POST', '/totp/verify', async (request, reply) => {
    const current = await sessionOf(auth, request, { required: true });
    const body = parseBody(VerifyBody, request.body);
    const result = await auth.mfa.checkTotp(current.session.userId, body.totp.trim());
    if (result.status === 'UNKNOWN_DEVICE_ERROR') {
      return { status: 'INVALID_TOTP_ERROR', currentNumberOfFailedAttempts: 0, maxNumberOfFailedAttempts: 5 };
    }
    if (result.status !== 'OK') return result;
    await completeFactorInSession(auth, reply, current, 'totp');
    return { status: 'OK' };
  });

  plainRoute(app, 'GET', '/totp/device/list', async (request) => {
    const { session } = await sessionOf(auth, request, { required: true });
    return { status: 'OK', devices: await auth.mfa.listDevices(session.userId) };
  });

  plainRoute(app, 'POST', '/totp/device/remove', async (request) => {
    const { session } = await sessionOf(auth, request, { required: true });
    const body = parseBody(RemoveBody, request.body);
    const verified = await auth.mfa.deviceVerified(session.userId, body.deviceName);
    if (verified) {
      // Removing a working authenticator needs a fully signed-in session that entered a code from it
      // just now (the SDK's step-up: `/totp/verify`, then the removal).
      const state = await mfaState(auth, session);
      if (!state?.claim.v) {
        throw invalidClaim([{ id: MFA_CLAIM, reason: 'not all required factors have been completed' }]);
      }
      const enteredAt = factorProgress(session.payload).completed.totp;
      if (!(await auth.mfa.totpFreshlyEntered(session.userId, enteredAt, body.deviceName))) {
        throw invalidClaim([{ id: MFA_CLAIM, reason: 'enter a current code from this authenticator first' }]);
      }
    }
    const removed = await auth.mfa.removeDevice(session.userId, body.deviceName);
    return { status: 'OK', didDeviceExist: removed.existed };
  });
}
