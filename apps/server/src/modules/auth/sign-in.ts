import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInResult } from '../users/users.service.ts';
import type { AuthModule } from './auth.module.ts';
import {
  allowedDomainsClaims,
  FACTORS_CLAIM,
  factorProgress,
  initialClaims,
  MFA_CLAIM,
  type MfaClaim,
} from './claims.ts';
import { sendTokens } from './fdi.http.ts';
import { invalidClaim } from './session.errors.ts';
import type { Session } from './session.service.ts';
import { modeForNewSession, type TransferMode } from './session.transport.ts';
import type { SecondaryFactor } from './mfa.service.ts';

/**
 * Ends a successful first-factor sign-in: a new session in the mode the client asked for, the session
 * headers, then the sign-in hooks. Returns the FDI OK body.
 */
export async function completeSignIn(
  auth: AuthModule,
  request: FastifyRequest,
  reply: FastifyReply,
  result: SignInResult,
  context: { tenantId: string; factorId: string },
) {
  const now = auth.clock.now();
  const mode = modeForNewSession(request);
  const { tokens } = await auth.sessions.create({
    userId: result.user.id,
    recipeUserId: result.loginMethod.id,
    tenantId: context.tenantId,
    claims: {
      ...initialClaims(auth.config.auth, {
        mfa: await auth.mfa.claim(result.user.id, {
          completed: { [context.factorId]: Math.floor(now / 1000) },
          first: context.factorId,
          second: [],
        }),
        firstFactor: context.factorId,
        nowMs: now,
        emailVerified: result.loginMethod.verified || !result.loginMethod.email,
      }),
      // A person of another domain still gets a session: the claim fails and the web shows access denied.
      ...allowedDomainsClaims(auth.config.auth, context.tenantId, result.loginMethod, now),
    },
    withAntiCsrfToken: mode === 'cookie' && auth.cookies.antiCsrf === 'via-token',
  });
  sendTokens(auth, reply, mode, tokens);
  const { id, email } = await auth.users.profile(result.user.id);
  await auth.hooks.run(
    { id, email },
    {
      isNewUser: result.isNewUser,
      tenantId: context.tenantId,
      factorId: context.factorId,
    },
  );
  return { status: 'OK', createdNewRecipeUser: result.createdNewRecipeUser, user: result.user };
}

export const RATE_LIMITED_MESSAGE = 'Too many sign-in attempts. Please wait a few minutes and try again.';

/**
 * Applies the abuse limits; returns the FDI body to send when one is exceeded. The prebuilt UI throws
 * away non-2xx bodies and shows "Something went wrong", but renders a GENERAL_ERROR message as is, so
 * a limit answers 200 GENERAL_ERROR (with `detail` and Retry-After) — see docs/decisions.md, "Sign-in layer".
 */
export async function checkLimits(
  auth: AuthModule,
  reply: FastifyReply,
  keys: Array<{ key: string; max: number }>,
): Promise<{ status: 'GENERAL_ERROR'; message: string; detail: string } | undefined> {
  const window = auth.config.auth.rateLimit.windowSeconds;
  for (const { key, max } of keys) {
    const { allowed, retryAfterSeconds } = await auth.rateLimiter.hit(key, max, window);
    if (!allowed) return limitedBody(reply, RATE_LIMITED_MESSAGE, retryAfterSeconds);
  }
  return undefined;
}

/** The answer to a refused sign-in step: 200 GENERAL_ERROR with the message and Retry-After (see checkLimits). */
export function limitedBody(reply: FastifyReply, message: string, retryAfterSeconds: number) {
  reply.header('retry-after', String(retryAfterSeconds));
  return { status: 'GENERAL_ERROR' as const, message, detail: message };
}

/**
 * Takes one try at a code under the per-account limits on wrong codes (code-guesses.ts); the body to
 * send when refused. A taken try counts as wrong until `auth.codeGuesses.succeeded` gives it back.
 */
export async function takeCodeGuess(auth: AuthModule, reply: FastifyReply, contact: string) {
  const refused = await auth.codeGuesses.take(contact);
  if (!refused) return undefined;
  const message =
    refused.reason === 'daily-cap'
      ? 'Too many wrong codes for this account today. Please try again tomorrow.'
      : `Too many wrong codes. Please wait ${refused.retryAfterSeconds} seconds, then try again.`;
  return limitedBody(reply, message, refused.retryAfterSeconds);
}

/**
 * Where the session stands on MFA (docs/reference/supertokens-fdi/CONTRACT.md §8.1): the claim recomputed from the user's current
 * settings, what is set up, what is next, and what may be set up now.
 */
export async function mfaState(auth: AuthModule, session: Session) {
  const user = await auth.users.get(session.userId);
  if (!user) return undefined;
  const progress = factorProgress(session.payload);
  const claim = await auth.mfa.claim(user.id, progress);
  const alreadySetup = await auth.mfa.alreadySetup(user);
  const pending: SecondaryFactor[] = await auth.mfa.pending(user.id, progress);
  const allowedToSetup: SecondaryFactor[] = claim.v
    ? auth.mfa.availableFactors
    : pending.some((f) => alreadySetup.includes(f))
      ? []
      : pending;
  const next = pending.filter((f) => alreadySetup.includes(f) || allowedToSetup.includes(f));
  return { user, claim, alreadySetup, allowedToSetup, next };
}

/** 403 st-mfa unless `factor` may be set up in this session now. */
export async function assertMaySetUp(auth: AuthModule, session: Session, factor: SecondaryFactor) {
  const state = await mfaState(auth, session);
  if (!state || !state.allowedToSetup.includes(factor)) {
    throw invalidClaim([{ id: MFA_CLAIM, reason: 'Setting up this factor is not allowed right now' }]);
  }
  return state;
}

/** Records a completed factor in the session and sends the access-token update (no new refresh token). */
export async function completeFactorInSession(
  auth: AuthModule,
  reply: FastifyReply,
  current: { session: Session; mode: TransferMode },
  factorId: string,
): Promise<MfaClaim> {
  const before = factorProgress(current.session.payload);
  const progress = {
    completed: { ...before.completed, [factorId]: Math.floor(auth.clock.now() / 1000) },
    first: before.first,
    second: [...before.second.filter((f) => f !== factorId), factorId],
  };
  const claim = await auth.mfa.claim(current.session.userId, progress);
  const { tokens } = await auth.sessions.updateClaims(current.session.handle, {
    [MFA_CLAIM]: claim,
    ...(progress.first ? { [FACTORS_CLAIM]: { f: progress.first, s: progress.second } } : {}),
  });
  sendTokens(auth, reply, current.mode, tokens);
  return claim;
}
