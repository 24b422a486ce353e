import { authConfigContract, type EmailVerificationMode, type PublicAuthConfig } from '@lumina/contracts';
import { paths } from '@/config/paths';
import { createApiClient } from '@/lib/api-client';

/** Pure pieces of the SuperTokens set-up, kept apart from the SDK so they are cheap to import and test. */

/** Where the prebuilt UI lives on the website and where the FDI server lives on the API (both `/auth`). */
export const AUTH_BASE_PATH = paths.auth;

export interface AuthAppInfo {
  apiDomain: string;
  apiBasePath: string;
  apiGatewayPath?: string;
  websiteDomain: string;
  websiteBasePath: string;
}

/**
 * `apiBase` is the configured API base (`VITE_API_BASE`): empty for same origin, a path prefix, or an
 * absolute URL. The SDK wants a domain plus an optional gateway path in front of `/auth`.
 */
export function authAppInfo(apiBase: string, origin: string): AuthAppInfo {
  const base = new URL(apiBase || '/', origin);
  const gateway = base.pathname.replace(/\/+$/, '');
  return {
    apiDomain: base.origin,
    apiBasePath: AUTH_BASE_PATH,
    ...(gateway ? { apiGatewayPath: gateway } : {}),
    websiteDomain: origin,
    websiteBasePath: AUTH_BASE_PATH,
  };
}

/** The part of `GET /auth/loginmethods` the set-up reads. */
export interface LoginMethods {
  firstFactors?: readonly string[];
  passwordless?: { enabled?: boolean };
  thirdParty?: { enabled?: boolean; providers?: { id: string; name?: string }[] };
}

/**
 * Where the login methods come from: `/auth/loginmethods`, or `/auth/{tenantId}/loginmethods` when the
 * page was opened with `?tenantId=` (spec S17), behind the configured API base.
 */
export function loginMethodsUrl(apiBase: string, origin: string, search: string): string {
  const { apiDomain, apiGatewayPath, apiBasePath } = authAppInfo(apiBase, origin);
  const tenantId = new URLSearchParams(search).get('tenantId');
  const tenantPath = tenantId && tenantId !== 'public' ? `/${encodeURIComponent(tenantId)}` : '';
  return `${apiDomain}${apiGatewayPath ?? ''}${apiBasePath}${tenantPath}/loginmethods`;
}

export type ContactMethod = 'EMAIL' | 'PHONE' | 'EMAIL_OR_PHONE';

/** The passwordless contact method the server offers (from its first factors); EMAIL when unknown. */
export function contactMethodFor(methods: LoginMethods | undefined): ContactMethod {
  const factors = methods?.firstFactors ?? [];
  const email = factors.some((f) => f === 'otp-email' || f === 'link-email');
  const phone = factors.some((f) => f === 'otp-phone' || f === 'link-phone');
  if (phone && email) return 'EMAIL_OR_PHONE';
  if (phone) return 'PHONE';
  return 'EMAIL';
}

/**
 * Where a successful sign-in goes (docs/spec/SPEC.md §4): a new session returns to the original path when
 * there is one, otherwise /onboarding. Anything else (a second factor on an existing session) keeps the
 * SDK's default: the original path, else home.
 */
export function successRedirectPath(context: {
  newSessionCreated: boolean;
  redirectToPath?: string;
}): string | undefined {
  if (!context.newSessionCreated) return undefined;
  return context.redirectToPath ?? paths.onboarding;
}

/** The auth page URL that returns to `path` after sign-in. */
export function authUrlFor(path: string): string {
  return `${AUTH_BASE_PATH}?redirectToPath=${encodeURIComponent(path)}`;
}

/** The EmailVerification recipe's mode for the server's `EMAIL_VERIFICATION` (off behaves as optional). */
export function emailVerificationModeFor(mode: EmailVerificationMode | undefined): 'OPTIONAL' | 'REQUIRED' {
  return mode === 'required' ? 'REQUIRED' : 'OPTIONAL';
}

/**
 * The server's public sign-in settings (`GET /api/auth/config`), read before the SDK starts. It is called
 * without a bearer token (the SDK that would supply one is what is being set up); undefined on failure,
 * and the recipe then stays optional, while the server still refuses unverified emails if it must.
 */
export async function fetchPublicAuthConfig(
  apiBase: string,
  fetchImpl?: typeof fetch,
): Promise<PublicAuthConfig | undefined> {
  const client = createApiClient({ baseUrl: apiBase, getAccessToken: () => null, fetch: fetchImpl });
  try {
    return await client.call(authConfigContract);
  } catch {
    return undefined;
  }
}

/**
 * The claims of an access token that gate product routes, as the server checks them
 * (`apps/server/src/modules/auth/claims.ts`, `globalClaimErrors`): `st-mfa.v` must be true, and `st-ev.v`
 * too when email verification is required. `key` changes whenever one of them changes validity (a second
 * factor or a verification was just completed); `complete` is true when product calls may go out.
 */
export function gatingClaims(
  payload: Record<string, unknown>,
  emailVerification: 'OPTIONAL' | 'REQUIRED',
): { key: string; complete: boolean } {
  const valueOf = (claim: string): unknown => {
    const entry = payload[claim];
    return entry && typeof entry === 'object' ? (entry as { v?: unknown }).v : undefined;
  };
  const mfa = valueOf('st-mfa');
  const ev = valueOf('st-ev');
  // A person the tenant does not admit (st-t-dmns) is refused by every product route: nothing to ask.
  const admitted = allowedEmailDomainsValidator.validate(payload).isValid;
  const complete = mfa === true && (emailVerification !== 'REQUIRED' || ev === true) && admitted;
  return { key: JSON.stringify([mfa ?? null, ev ?? null, admitted]), complete };
}

/** SuperTokens' tenant allowed-domains claim; in Lumina it lists the tenant's allowed email domains. */
export const ALLOWED_DOMAINS_CLAIM = 'st-t-dmns';
/** Lumina's claim beside it: the domain of the session's verified sign-in email (null without one). */
export const EMAIL_DOMAIN_CLAIM = 'lumina-email-domain';

/** Why `st-t-dmns` failed, in the shape the server's 403 uses (SuperTokens' `includes` reason). */
export interface AllowedDomainsReason {
  message: string;
  expectedToInclude: string | null;
  actualValue?: string[];
}

/**
 * The web side of `st-t-dmns`, checked exactly as the server checks it: when the access token carries
 * the claim, the person's email domain must be in its list. Its failure shows the SDK's access-denied
 * screen (`showAccessDeniedOnFailure`), which offers a way to log out; there is nothing to refresh.
 */
export const allowedEmailDomainsValidator = {
  id: ALLOWED_DOMAINS_CLAIM,
  showAccessDeniedOnFailure: true,
  refresh: async () => undefined,
  shouldRefresh: () => false,
  validate(payload: Record<string, unknown> | undefined) {
    const claim = payload?.[ALLOWED_DOMAINS_CLAIM] as { v?: unknown } | undefined;
    if (!claim) return { isValid: true as const };
    const domain = payload?.[EMAIL_DOMAIN_CLAIM];
    const expectedToInclude = typeof domain === 'string' ? domain : null;
    const actualValue = Array.isArray(claim.v)
      ? claim.v.filter((d): d is string => typeof d === 'string')
      : [];
    if (expectedToInclude !== null && actualValue.includes(expectedToInclude))
      return { isValid: true as const };
    const reason: AllowedDomainsReason = { message: 'wrong value', expectedToInclude, actualValue };
    return { isValid: false as const, reason };
  },
};

/** SuperTokens' email-verification claim. */
export const EMAIL_VERIFIED_CLAIM = 'st-ev';

/**
 * SessionAuth's `overrideGlobalClaimValidators` for the server's email-verification mode: the SDK's
 * global validators plus `st-t-dmns`, and `st-ev` only when the server requires verified addresses.
 * The SDK registers `st-ev` whatever the mode (its web-js half without `showAccessDeniedOnFailure:
 * false`), so in OPTIONAL mode an unverified sign-in (a passkey sign-up, a SAML or GitHub address the
 * provider does not vouch for) got the access-denied screen on every page although the server serves it.
 */
export function guardClaimValidators(emailVerification: 'OPTIONAL' | 'REQUIRED') {
  return <V extends { id: string }>(globals: V[]): Array<V | typeof allowedEmailDomainsValidator> => [
    ...globals.filter(
      (v) =>
        v.id !== ALLOWED_DOMAINS_CLAIM && (emailVerification === 'REQUIRED' || v.id !== EMAIL_VERIFIED_CLAIM),
    ),
    allowedEmailDomainsValidator,
  ];
}

/** The translation key and values that explain a failed claim on the access-denied screen. */
export function accessDeniedText(error: { id: string; reason?: unknown }): {
  key: string;
  values?: Record<string, string>;
} {
  if (error.id !== ALLOWED_DOMAINS_CLAIM) return { key: 'auth.accessDenied.other' };
  const reason = (error.reason ?? {}) as Partial<AllowedDomainsReason>;
  const domains = (reason.actualValue ?? []).join(', ');
  return reason.expectedToInclude
    ? { key: 'auth.accessDenied.allowedDomains', values: { domains, actual: reason.expectedToInclude } }
    : { key: 'auth.accessDenied.allowedDomainsNoEmail', values: { domains } };
}
