import { parseCookie, stringifySetCookie, type SetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthConfig } from '../../config.ts';
import type { AccessTokenPayload, IssuedTokens } from './session.service.ts';

/**
 * How session tokens travel (docs/reference/supertokens-fdi/CONTRACT.md §2): header mode (`st-access-token`/`st-refresh-token`
 * response headers, `Authorization: Bearer` requests) or cookie mode (`sAccessToken`/`sRefreshToken`
 * HttpOnly cookies, with an anti-CSRF policy). Every response that creates or changes a session carries
 * the `front-token`; `remove` ends it on the client.
 */
export type TransferMode = 'header' | 'cookie';
export type AntiCsrfPolicy = 'none' | 'via-custom-header' | 'via-token';

export const EXPOSED_HEADERS = ['front-token', 'st-access-token', 'st-refresh-token', 'anti-csrf'] as const;
export const ALLOWED_HEADERS = [
  'content-type',
  'rid',
  'fdi-version',
  'anti-csrf',
  'authorization',
  'st-auth-mode',
];

const EPOCH = new Date(0);

export interface CookiePolicy {
  sameSite: 'lax' | 'strict' | 'none';
  secure: boolean;
  domain?: string;
  antiCsrf: AntiCsrfPolicy;
  refreshPath: string;
  /** Origins whose pages may send state-changing requests with a session cookie (API, web app, CORS). */
  trustedOrigins: string[];
}

/** Lax when the web app and the API share a site (scheme + registrable domain), otherwise None. */
export function cookiePolicy(
  auth: AuthConfig,
  publicUrl: string,
  basePath = '/auth',
  corsOrigins: readonly string[] = [],
): CookiePolicy {
  const api = new URL(publicUrl);
  const web = new URL(auth.webUrl);
  const sameSite =
    auth.cookieSameSite !== 'auto'
      ? auth.cookieSameSite
      : api.protocol === web.protocol && site(api.hostname) === site(web.hostname)
        ? 'lax'
        : 'none';
  const antiCsrf: AntiCsrfPolicy =
    auth.antiCsrf !== 'auto' ? auth.antiCsrf : sameSite === 'none' ? 'via-custom-header' : 'none';
  return {
    sameSite,
    secure: api.protocol === 'https:',
    domain: auth.cookieDomain,
    antiCsrf,
    refreshPath: `${basePath}/session/refresh`,
    trustedOrigins: [...new Set([api.origin, web.origin, ...corsOrigins.map((o) => new URL(o).origin)])],
  };
}

/** Approximate registrable domain (last two labels); IPs and single-label hosts stand for themselves. */
function site(hostname: string): string {
  if (/^[\d.]+$/.test(hostname) || hostname.includes(':') || !hostname.includes('.')) return hostname;
  return hostname.split('.').slice(-2).join('.');
}

export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  const header = request.headers.cookie;
  return header ? parseCookie(header) : {};
}

function bearer(request: FastifyRequest): string | undefined {
  const value = request.headers.authorization;
  const match = typeof value === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}

/** Header mode first (Authorization: Bearer), then the sAccessToken cookie. */
export function readAccessToken(request: FastifyRequest): { token: string; mode: TransferMode } | undefined {
  const fromHeader = bearer(request);
  if (fromHeader) return { token: fromHeader, mode: 'header' };
  const fromCookie = cookiesOf(request).sAccessToken;
  return fromCookie ? { token: fromCookie, mode: 'cookie' } : undefined;
}

/** Header mode first (Authorization: Bearer <refresh token>), then the sRefreshToken cookie. */
export function readRefreshToken(request: FastifyRequest): { token: string; mode: TransferMode } | undefined {
  const fromHeader = bearer(request);
  if (fromHeader) return { token: fromHeader, mode: 'header' };
  const fromCookie = cookiesOf(request).sRefreshToken;
  return fromCookie ? { token: fromCookie, mode: 'cookie' } : undefined;
}

/** The mode for a new session: cookie only when the client asks for it (st-auth-mode: cookie). */
export function modeForNewSession(request: FastifyRequest): TransferMode {
  return request.headers['st-auth-mode'] === 'cookie' ? 'cookie' : 'header';
}

/** Standard base64 (not base64url: the client uses atob) of {uid, ate (ms), up}. */
export function frontToken(payload: AccessTokenPayload, accessTokenExpiry: number): string {
  return Buffer.from(
    JSON.stringify({ uid: payload.sub, ate: accessTokenExpiry, up: payload }),
    'utf8',
  ).toString('base64');
}

/**
 * Sets one cookie, replacing an earlier Set-Cookie of the same name in this response (a write then a
 * clear, say), so each cookie appears once. Fastify's `reply.header('set-cookie', …)` appends to what is
 * there, so the list is removed and written back whole (passing the old list back in duplicated it).
 */
function addCookie(reply: FastifyReply, cookie: SetCookie): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  const others = list.filter((c) => !c.startsWith(`${cookie.name}=`));
  reply.removeHeader('set-cookie');
  reply.header('set-cookie', [...others, stringifySetCookie(cookie)]);
}

function exposeHeaders(reply: FastifyReply): void {
  reply.header('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
}

/** Writes a new, refreshed or updated session to the response in the given mode. */
export function writeSessionTokens(
  reply: FastifyReply,
  mode: TransferMode,
  tokens: IssuedTokens,
  policy: CookiePolicy,
  now: number,
): void {
  exposeHeaders(reply);
  reply.header('front-token', frontToken(tokens.payload, tokens.accessTokenExpiry));
  if (mode === 'header') {
    reply.header('st-access-token', tokens.accessToken);
    if (tokens.refreshToken) reply.header('st-refresh-token', tokens.refreshToken);
    return;
  }
  const common = cookieAttributes(policy);
  addCookie(reply, {
    name: 'sAccessToken',
    value: tokens.accessToken,
    path: '/',
    // The JWT's exp is what limits it; the cookie outlives it so the client can still refresh.
    expires: new Date(now + 365 * 24 * 3_600_000),
    ...common,
  });
  if (tokens.refreshToken && tokens.refreshTokenExpiry) {
    addCookie(reply, {
      name: 'sRefreshToken',
      value: tokens.refreshToken,
      path: policy.refreshPath,
      expires: new Date(tokens.refreshTokenExpiry),
      ...common,
    });
  }
  if (policy.antiCsrf === 'via-token' && tokens.antiCsrfToken)
    reply.header('anti-csrf', tokens.antiCsrfToken);
}

/** The "clear" set (docs/reference/supertokens-fdi/CONTRACT.md §2.9): sign-out, failed refresh, theft. Both modes when unknown. */
export function clearSessionTokens(
  reply: FastifyReply,
  mode: TransferMode | 'both',
  policy: CookiePolicy,
): void {
  exposeHeaders(reply);
  reply.header('front-token', 'remove');
  reply.removeHeader('anti-csrf');
  if (mode !== 'cookie') {
    reply.header('st-access-token', '');
    reply.header('st-refresh-token', '');
  }
  if (mode !== 'header') {
    const common = cookieAttributes(policy);
    addCookie(reply, { name: 'sAccessToken', value: '', path: '/', expires: EPOCH, ...common });
    addCookie(reply, {
      name: 'sRefreshToken',
      value: '',
      path: policy.refreshPath,
      expires: EPOCH,
      ...common,
    });
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * False when a state-changing request rides on a session cookie and its `Origin` names a site other
 * than ours. Browsers send `Origin` on every cross-origin request and on same-origin non-GET ones, so a
 * forged form or fetch from another page (including a sibling subdomain that SameSite=Lax lets through)
 * is caught whatever the anti-CSRF policy; header-mode requests carry no ambient credential.
 */
export function fromTrustedOrigin(
  request: FastifyRequest,
  mode: TransferMode,
  policy: CookiePolicy,
): boolean {
  if (mode === 'header' || SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  return typeof origin === 'string' && policy.trustedOrigins.includes(origin);
}

/**
 * The cookie-mode anti-CSRF check for a session-verified request (node's rules): nothing for header
 * mode or GET; with `via-custom-header` a `rid` header must be present; with `via-token` the
 * `anti-csrf` header must equal the token in the access-token payload.
 */
export function passesAntiCsrf(
  request: FastifyRequest,
  mode: TransferMode,
  policy: CookiePolicy,
  payloadToken: string | null,
  isRefresh = false,
): boolean {
  if (mode === 'header') return true;
  if (!isRefresh && request.method === 'GET') return true;
  if (policy.antiCsrf === 'via-custom-header') return typeof request.headers.rid === 'string';
  if (policy.antiCsrf === 'via-token') {
    const sent = request.headers['anti-csrf'];
    return typeof sent === 'string' && payloadToken !== null && sent === payloadToken;
  }
  return true;
}

/** The attributes every session cookie carries, whether set or cleared (a cleared cookie must match the set one). */
function cookieAttributes(policy: CookiePolicy) {
  return { httpOnly: true, sameSite: policy.sameSite, secure: policy.secure, domain: policy.domain } as const;
}
