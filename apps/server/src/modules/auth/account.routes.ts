import { contracts, type SecondFactorId } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.ts';
import { route } from '../../http/route.ts';
import type { AuthModule } from './auth.module.ts';
import { factorProgress } from './claims.ts';

/** Account-page endpoints of the sign-in layer: second factors and signing out everywhere. */
export function accountRoutes(app: FastifyInstance, auth: AuthModule): void {
  async function state(userId: string) {
    const user = await auth.users.get(userId);
    if (!user) throw new AppError('UNAUTHORISED', 'Please sign in to continue.');
    const devices = await auth.mfa.listDevices(userId);
    return {
      enabled: await auth.mfa.required(userId),
      available: auth.mfa.availableFactors,
      alreadySetup: await auth.mfa.alreadySetup(user),
      totpDevices: devices.map((d) => ({ name: d.name, verified: d.verified })),
      passkeys: (await auth.webauthn.list(userId)).map((p) => ({
        id: p.webauthnCredentialId,
        name: p.name,
        createdAt: new Date(p.createdAt).toISOString(),
        lastUsedAt: p.lastUsedAt === null ? null : new Date(p.lastUsedAt).toISOString(),
      })),
    };
  }

  const guard = { preHandler: app.requireUser };
  route(app, contracts.secondFactors, async (request) => state(request.user.id), guard);

  route(
    app,
    contracts.enableSecondFactor,
    async (request) => {
      const factor: SecondFactorId = request.params.factorId;
      const current = await state(request.user.id);
      if (!current.available.includes(factor)) {
        throw new AppError('VALIDATION_FAILED', 'This second factor is not offered here.');
      }
      if (!current.alreadySetup.includes(factor)) {
        throw new AppError(
          'CONFLICT',
          factor === 'totp'
            ? 'Set up an authenticator app first, then turn it on.'
            : factor === 'webauthn'
              ? 'Add a passkey first, then turn it on.'
              : 'Add a sign-in address for this factor first, then turn it on.',
        );
      }
      await auth.mfa.setRequired(request.user.id, factor, true);
      return state(request.user.id);
    },
    guard,
  );

  route(
    app,
    contracts.disableSecondFactor,
    async (request) => {
      const factor: SecondFactorId = request.params.factorId;
      if (factor === 'totp' && (await auth.mfa.required(request.user.id)).includes('totp')) {
        // Turning the authenticator off takes the authenticator: a code from it entered in this session just now.
        const enteredAt = factorProgress(request.session!.payload).completed.totp;
        if (!(await auth.mfa.totpFreshlyEntered(request.user.id, enteredAt))) {
          throw new AppError(
            'FORBIDDEN',
            'To turn off the authenticator app, first enter a current code from it, then try again.',
          );
        }
      }
      await auth.mfa.setRequired(request.user.id, factor, false);
      return state(request.user.id);
    },
    guard,
  );

  route(
    app,
    contracts.revokeAllSessions,
    async (request) => ({ revoked: (await auth.sessions.revokeAllForUser(request.user.id)).length }),
    guard,
  );
}
