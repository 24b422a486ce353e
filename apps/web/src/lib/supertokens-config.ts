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
