import type { AuthConfig } from '../../config.ts';
import type { AccessTokenPayload, SessionClaims } from './session.service.ts';
import type { ClaimValidationError } from './session.errors.ts';
import type { FactorProgress } from './mfa-requirements.ts';

export const MFA_CLAIM = 'st-mfa';
export const EV_CLAIM = 'st-ev';
/**
 * Our own claim beside `st-mfa`: the first factor (`f`) and the factors completed in the MFA step (`s`).
 * `st-mfa.c` cannot tell the two apart when they share an id (email code, then a fresh email code).
 */
export const FACTORS_CLAIM = 'lumina-mfa';

export interface FactorsClaim {
  f: string;
  s: string[];
}

export interface MfaClaim {
  /** Completed factors: id → unix seconds. */
  c: Record<string, number>;
  /** True when the MFA requirements for this session are met. */
  v: boolean;
}

/**
 * The claims a new session starts with: `st-mfa` always (the UI deadlocks without it; `v` is false
 * while a second factor the user turned on is missing), `st-ev` when email verification is on.
 */
export function initialClaims(
  auth: AuthConfig,
  input: { mfa: MfaClaim; firstFactor: string; nowMs: number; emailVerified: boolean },
): SessionClaims {
  return {
    [MFA_CLAIM]: input.mfa,
    [FACTORS_CLAIM]: { f: input.firstFactor, s: [] } satisfies FactorsClaim,
    ...(auth.emailVerification !== 'off' ? { [EV_CLAIM]: { v: input.emailVerified, t: input.nowMs } } : {}),
  };
}

/** The completed factors recorded in a session's access token. */
export function completedFactors(payload: AccessTokenPayload): Record<string, number> {
  return (payload[MFA_CLAIM] as MfaClaim | undefined)?.c ?? {};
}

/**
 * How far a session's sign-in got. Sessions from before `lumina-mfa` existed count their earliest
 * completed factor as the first one and nothing as done in the MFA step (the safe reading).
 */
export function factorProgress(payload: AccessTokenPayload): FactorProgress {
  const completed = completedFactors(payload);
  const own = payload[FACTORS_CLAIM] as FactorsClaim | undefined;
  if (own) return { completed, first: own.f, second: own.s };
  const earliest = Object.entries(completed).sort((a, b) => a[1] - b[1])[0]?.[0];
  return { completed, first: earliest, second: [] };
}

/**
 * The global claim validators for product routes: `st-mfa` must be satisfied, and `st-ev` when email
 * verification is required. Returns the failures (empty when the session may proceed).
 */
export function globalClaimErrors(auth: AuthConfig, payload: AccessTokenPayload): ClaimValidationError[] {
  const errors: ClaimValidationError[] = [];
  const mfa = payload[MFA_CLAIM] as MfaClaim | undefined;
  if (!mfa || mfa.v !== true) {
    errors.push({ id: MFA_CLAIM, reason: { message: 'not all required factors have been completed' } });
  }
  if (auth.emailVerification === 'required') {
    const ev = payload[EV_CLAIM] as { v?: boolean } | undefined;
    if (!ev || ev.v !== true) {
      errors.push({
        id: EV_CLAIM,
        reason: { message: 'wrong value', expectedValue: true, actualValue: ev?.v ?? false },
      });
    }
  }
  return errors;
}
