import type { AuthConfig } from '../../config.ts';
import type { AccessTokenPayload, SessionClaims } from './session.service.ts';
import type { ClaimValidationError } from './session.errors.ts';

export const MFA_CLAIM = 'st-mfa';
export const EV_CLAIM = 'st-ev';

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
  input: { mfa: MfaClaim; nowMs: number; emailVerified: boolean },
): SessionClaims {
  return {
    [MFA_CLAIM]: input.mfa,
    ...(auth.emailVerification !== 'off' ? { [EV_CLAIM]: { v: input.emailVerified, t: input.nowMs } } : {}),
  };
}

/** The completed factors recorded in a session's access token. */
export function completedFactors(payload: AccessTokenPayload): Record<string, number> {
  return (payload[MFA_CLAIM] as MfaClaim | undefined)?.c ?? {};
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
