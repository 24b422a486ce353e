import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { AUTH_BASE_PATH } from './auth.module.ts';
import { authOf, SDK_HEADERS, signIn } from './auth.test-helpers.ts';
import { fdiPlugin } from './fdi.plugin.ts';

/**
 * Hostile text at every `/auth` route, listed from the plugin's own registrations: NUL characters,
 * lone surrogates, oversize strings, wrong types and deep nesting in every field the FDI uses, in the
 * body, the query and the tenant segment. Every answer must be a 4xx or a 200 status body, never a 5xx.
 */

const FIELDS = [
  'email',
  'phoneNumber',
  'deviceId',
  'preAuthSessionId',
  'userInputCode',
  'linkCode',
  'thirdPartyId',
  'clientType',
  'redirectURIOnProviderDashboard',
  'redirectURIInfo',
  'oAuthTokens',
  'deviceName',
  'totp',
  'token',
  'method',
  'tenantId',
  'formFields',
  'shouldTryLinkingWithSessionUser',
  // Sign in with Lumina (OAuth2Provider): the SDK's fields and the OAuth parameters.
  'loginChallenge',
  'logoutChallenge',
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'grant_type',
  'code',
  'code_verifier',
  'refresh_token',
  'id_token_hint',
  'post_logout_redirect_uri',
  'xsrf',
];

let deep: unknown = 'x';
for (let i = 0; i < 50; i++) deep = { a: deep };

const HOSTILE: Array<[string, unknown]> = [
  ['NUL in an email', 'a\u0000b@example.com'],
  ['a lone NUL', '\u0000'],
  ['a lone high surrogate', '\uD800'],
  ['a lone low surrogate in text', 'ab\uDC00cd@example.com'],
  ['an oversize string', 'x'.repeat(100_000)],
  ['a number', 12345],
  ['a boolean', true],
  ['null', null],
  ['an array of NULs', ['\u0000', '\uD800']],
  ['an object', { redirectURIOnProviderDashboard: '\u0000', redirectURIQueryParams: { code: '\uD800' } }],
  ['deep nesting', deep],
];

/** Percent-encodes text, writing a lone surrogate as its (invalid) three UTF-8 bytes, as a raw client could. */
function queryEncode(text: string): string {
  return text
    .split(/(\p{Surrogate})/u)
    .map((part) =>
      /^\p{Surrogate}$/u.test(part)
        ? Array.from(
            Buffer.from([
              0xed,
              0xa0 | ((part.charCodeAt(0) >> 6) & 0x1f),
              0x80 | (part.charCodeAt(0) & 0x3f),
            ]),
          )
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('')
        : encodeURIComponent(part),
    )
    .join('');
}

describe(`every /auth route answers hostile input with a 4xx, on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_CONTACT: '10000',
      OAUTH_CLIENTS_JSON: JSON.stringify([
        { client_id: 'app', name: 'App', redirect_uris: ['http://127.0.0.1:9/cb'], first_party: true },
      ]),
    },
  });
  let routes: Array<{ method: string; url: string }>;
  let bearer: string;
  beforeAll(async () => {
    // The routes exactly as the app registers them: the same plugin on a bare instance that records them.
    const probe = Fastify();
    const seen: Array<{ method: string; url: string }> = [];
    probe.addHook('onRoute', (r) => {
      for (const method of [r.method].flat()) if (method !== 'HEAD') seen.push({ method, url: r.url });
    });
    await probe.register(fdiPlugin, {
      prefix: AUTH_BASE_PATH,
      auth: authOf(env),
      db: env.container.database.db,
      webDistDir: env.config.webDistDir,
    });
    await probe.ready();
    await probe.close();
    routes = seen.filter((r) => !r.url.includes(':tenantId'));
    bearer = (await signIn(env, 'hostile@example.test')).accessToken;
  });

  function send(method: string, url: string, payload: unknown, query = '') {
    const hasBody = method !== 'GET' && method !== 'DELETE';
    return env.app.inject({
      method: method as 'POST',
      url: `${url}${query}`,
      headers: { ...SDK_HEADERS, 'st-auth-mode': 'header', authorization: `Bearer ${bearer}` },
      ...(hasBody ? { payload: JSON.stringify(payload) } : {}),
    });
  }

  it('lists the sign-in routes it is about to test', () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes).toContainEqual({ method: 'POST', url: '/auth/signinup/code' });
    expect(routes).toContainEqual({ method: 'POST', url: '/auth/signinup/code/consume' });
    expect(routes).toContainEqual({ method: 'GET', url: '/auth/passwordless/email/exists' });
    // Sign in with Lumina: the SDK's routes and the provider's own.
    expect(routes).toContainEqual({ method: 'GET', url: '/auth/oauth/login' });
    expect(routes).toContainEqual({ method: 'POST', url: '/auth/oauth/logout' });
    expect(routes).toContainEqual({ method: 'POST', url: '/auth/oauth/token' });
    expect(routes).toContainEqual({ method: 'GET', url: '/auth/oauth/auth' });
  });

  it('answers the two reported requests with a 400 and a message', async () => {
    const code = await send('POST', '/auth/signinup/code', { email: 'a\u0000b@example.com' });
    expect(code.statusCode).toBe(400);
    expect(code.json()).toEqual({ message: 'body.email: must not contain a NUL character' });
    const consume = await send('POST', '/auth/signinup/code/consume', {
      userInputCode: '123456',
      deviceId: 'd',
      preAuthSessionId: '\u0000',
    });
    expect(consume.statusCode).toBe(400);
    expect(consume.json().message).toMatch(/preAuthSessionId/);
  });

  it('never answers a 5xx, whatever field holds whatever value', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const [label, value] of HOSTILE) {
        const attempts: Array<[string, unknown, string]> = [
          ['every field', Object.fromEntries(FIELDS.map((f) => [f, value])), ''],
          ['the whole body', value, ''],
          ...FIELDS.map((f): [string, unknown, string] => [f, { [f]: value }, '']),
          ...(typeof value === 'string'
            ? FIELDS.map((f): [string, unknown, string] => [
                `query ${f}`,
                {},
                `?${f}=${queryEncode(value.slice(0, 9000))}`,
              ])
            : []),
        ];
        for (const [where, body, query] of attempts) {
          const res = await send(route.method, route.url, body, query);
          if (res.statusCode >= 500) {
            failures.push(`${route.method} ${route.url} ${where} = ${label}: ${res.statusCode} ${res.body}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('refuses hostile tenant ids in the path with a 4xx', async () => {
    for (const tenant of ['%00', '%ED%A0%80', 'x'.repeat(9000)]) {
      const res = await send('POST', `/auth/${tenant}/signinup/code`, { email: 'a@example.test' });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });
});
