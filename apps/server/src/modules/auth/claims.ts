import type { AuthConfig } from '../../config.ts';
import type { AccessTokenPayload, SessionClaims } from './session.service.ts';
import type { ClaimValidationError } from './session.errors.ts';
import type { FactorProgress } from './mfa-requirements.ts';

export const MFA_CLAIM = 'st-mfa';
export const EV_CLAIM = 'st-ev';
/**
 * SuperTokens' tenant allowed-domains claim: `{v: [domains], t}`, the tenant's allowed domains when the
 * session began (effectively unlimited age). Lumina's domains are email domains (docs/decisions.md).
 */
export const ALLOWED_DOMAINS_CLAIM = 'st-t-dmns';
/**
 * Our own claim beside `st-t-dmns`: the domain of the session's verified sign-in email (null without
 * one), so the server and the web check the same thing from the token alone.
 */
export const EMAIL_DOMAIN_CLAIM = 'lumina-email-domain';
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

/** The domain of an email address, lowercase; null without a usable address. */
export function emailDomainOf(email: string | null | undefined): string | null {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at < 1 || at === email.length - 1) return null;
  return email.slice(at + 1).toLowerCase();
}

/**
 * The allowed-domains claims for a session in a tenant: nothing when the tenant admits every domain,
 * else `st-t-dmns` (the tenant's domains) and the domain of the sign-in method's email, which counts only
 * once verified (a provider's unverified address proves nothing; a phone number has no domain).
 */
export function allowedDomainsClaims(
  auth: AuthConfig,
  tenantId: string,
  method: { email: string | null; verified: boolean } | undefined,
  nowMs: number,
): SessionClaims {
  const allowed = auth.tenants[tenantId]?.allowedDomains;
  if (!allowed) return {};
  return {
    [ALLOWED_DOMAINS_CLAIM]: { v: [...allowed], t: nowMs },
    [EMAIL_DOMAIN_CLAIM]: method?.verified ? emailDomainOf(method.email) : null,
  };
}

/**
 * `st-t-dmns` checked against the person's email domain, in SuperTokens' PrimitiveArrayClaim `includes`
 * reason shape. It applies when the token carries the claim or the session's tenant restricts domains
 * now (a session from before the restriction, without the claim, fails: "value does not exist").
 */
export function allowedDomainsError(
  auth: AuthConfig,
  payload: AccessTokenPayload,
): ClaimValidationError | undefined {
  const claim = payload[ALLOWED_DOMAINS_CLAIM] as { v?: unknown } | undefined;
  const restricted = auth.tenants[payload.tId]?.allowedDomains !== undefined;
  if (!claim && !restricted) return undefined;
  const domain = payload[EMAIL_DOMAIN_CLAIM];
  const expectedToInclude = typeof domain === 'string' ? domain : null;
  const actualValue = Array.isArray(claim?.v) ? (claim.v as unknown[]) : undefined;
  if (!actualValue) {
    return {
      id: ALLOWED_DOMAINS_CLAIM,
      reason: { message: 'value does not exist', expectedToInclude, actualValue },
    };
  }
  if (expectedToInclude === null || !actualValue.includes(expectedToInclude)) {
    return { id: ALLOWED_DOMAINS_CLAIM, reason: { message: 'wrong value', expectedToInclude, actualValue } };
  }
  return undefined;
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
 * The global claim validators for product routes: `st-mfa` must be satisfied, `st-ev` when email
 * verification is required, and `st-t-dmns` when the session's tenant restricts email domains. Returns the failures (empty when the session may proceed).
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
  const domains = allowedDomainsError(auth, payload);
  if (domains) errors.push(domains);
  return errors;
}
