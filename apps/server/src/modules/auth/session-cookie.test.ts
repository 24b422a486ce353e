import { parseSetCookie } from 'cookie';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb, type TestEnv, useTestEnv } from '../../../test/harness.ts';
import {
  createCode,
  decodeFrontToken,
  SESSION_HEADERS,
  signIn,
  uniqueEmail,
  consumeMailedCode,
} from './auth.test-helpers.ts';

function setCookieNames(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.map((c) => parseSetCookie(c).name);
}

function cookies(res: LightMyRequestResponse) {
  const raw = res.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return Object.fromEntries(list.map((c) => [parseSetCookie(c).name, parseSetCookie(c)]));
}

async function cookieSignIn(env: TestEnv, address: string) {
  const started = await createCode(env.app, { email: address });
  const done = await consumeMailedCode(env, address, started, { headers: { 'st-auth-mode': 'cookie' } });
  expect(done.body.status).toBe('OK');
  const jar = cookies(done.res);
  return { res: done.res, access: jar.sAccessToken!, refresh: jar.sRefreshToken! };
}

describe(`sessions in cookie mode on ${testDb}`, () => {
  describe('cross-site web app (SameSite=None, anti-CSRF via custom header) with CORS', () => {
    const env = useTestEnv({
      workers: false,
      env: {
        PUBLIC_URL: 'https://api.lumina.test',
        WEB_URL: 'https://app.other.test',
        CORS_ORIGINS: 'https://app.other.test',
      },
    });

    it('sets HttpOnly cookies with the refresh path, plus the front-token header, and no header tokens', async () => {
      const { res, access, refresh } = await cookieSignIn(env, uniqueEmail('cookie'));
      expect(res.headers['st-access-token']).toBeUndefined();
      expect(res.headers['front-token']).toBeTruthy();
      expect(access).toMatchObject({ path: '/', httpOnly: true, sameSite: 'none', secure: true });
      expect(refresh).toMatchObject({
        path: '/auth/session/refresh',
        httpOnly: true,
        sameSite: 'none',
        secure: true,
      });
      const me = await env.app.inject({
        method: 'GET',
        url: '/api/user',
        headers: { cookie: `sAccessToken=${access.value}` },
      });
      expect(me.statusCode).toBe(200);
    });

    it('requires a rid header on non-GET session requests and on refresh', async () => {
      const { refresh } = await cookieSignIn(env, uniqueEmail('csrf'));
      const noRid = await env.app.inject({
        method: 'POST',
        url: '/auth/session/refresh',
        headers: { cookie: `sRefreshToken=${refresh.value}` },
      });
      expect(noRid.statusCode).toBe(401);
      const withRid = await env.app.inject({
        method: 'POST',
        url: '/auth/session/refresh',
        headers: { ...SESSION_HEADERS, cookie: `sRefreshToken=${refresh.value}` },
      });
      expect(withRid.statusCode).toBe(200);
      const next = cookies(withRid);
      expect(next.sAccessToken?.value).toBeTruthy();
      expect(next.sRefreshToken?.value).not.toBe(refresh.value);
      expect(withRid.headers['front-token']).toBeTruthy();

      const signoutNoRid = await env.app.inject({
        method: 'POST',
        url: '/auth/signout',
        headers: { cookie: `sAccessToken=${next.sAccessToken!.value}` },
      });
      expect(signoutNoRid.statusCode).toBe(401);
      const signout = await env.app.inject({
        method: 'POST',
        url: '/auth/signout',
        headers: { ...SESSION_HEADERS, cookie: `sAccessToken=${next.sAccessToken!.value}` },
      });
      expect(signout.statusCode).toBe(200);
      const cleared = cookies(signout);
      expect(cleared.sAccessToken).toMatchObject({ value: '', path: '/' });
      expect(cleared.sRefreshToken).toMatchObject({ value: '', path: '/auth/session/refresh' });
      expect(cleared.sAccessToken!.expires!.getTime()).toBe(0);
      expect(signout.headers['front-token']).toBe('remove');
    });

    it('answers CORS preflights for the web origin and exposes the session headers', async () => {
      const preflight = await env.app.inject({
        method: 'OPTIONS',
        url: '/auth/signinup/code',
        headers: {
          origin: 'https://app.other.test',
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'content-type,rid,fdi-version,st-auth-mode,authorization,anti-csrf',
        },
      });
      expect(preflight.statusCode).toBeLessThan(300);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.other.test');
      expect(preflight.headers['access-control-allow-credentials']).toBe('true');
      for (const h of ['rid', 'fdi-version', 'st-auth-mode', 'authorization', 'anti-csrf']) {
        expect(String(preflight.headers['access-control-allow-headers'])).toContain(h);
      }
      const started = await env.app.inject({
        method: 'POST',
        url: '/auth/signinup/code',
        headers: {
          origin: 'https://app.other.test',
          'content-type': 'application/json',
          rid: 'passwordless',
        },
        payload: { email: uniqueEmail('cors') },
      });
      const exposed = String(started.headers['access-control-expose-headers']);
      for (const h of ['front-token', 'st-access-token', 'st-refresh-token', 'anti-csrf'])
        expect(exposed).toContain(h);
      const stranger = await env.app.inject({
        method: 'OPTIONS',
        url: '/auth/signinup/code',
        headers: { origin: 'https://evil.test', 'access-control-request-method': 'POST' },
      });
      expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('anti-CSRF via token', () => {
    const env = useTestEnv({ workers: false, env: { SESSION_ANTI_CSRF: 'via-token' } });

    it('sends an anti-csrf token and requires it on refresh and non-GET requests', async () => {
      const { res, access, refresh } = await cookieSignIn(env, uniqueEmail('token'));
      const antiCsrf = String(res.headers['anti-csrf']);
      expect(antiCsrf.length).toBeGreaterThan(10);
      expect(decodeFrontToken(String(res.headers['front-token'])).up.antiCsrfToken).toBe(antiCsrf);
      expect(access.sameSite).toBe('lax');

      // A GET needs no anti-CSRF token.
      const me = await env.app.inject({
        method: 'GET',
        url: '/api/user',
        headers: { cookie: `sAccessToken=${access.value}` },
      });
      expect(me.statusCode).toBe(200);

      const wrong = await env.app.inject({
        method: 'POST',
        url: '/auth/session/refresh',
        headers: { ...SESSION_HEADERS, 'anti-csrf': 'nope', cookie: `sRefreshToken=${refresh.value}` },
      });
      expect(wrong.statusCode).toBe(401);
      const right = await env.app.inject({
        method: 'POST',
        url: '/auth/session/refresh',
        headers: { ...SESSION_HEADERS, 'anti-csrf': antiCsrf, cookie: `sRefreshToken=${refresh.value}` },
      });
      expect(right.statusCode).toBe(200);
      expect(right.headers['anti-csrf']).toBe(antiCsrf);
      const newAccess = cookies(right).sAccessToken!.value;

      const signoutMissing = await env.app.inject({
        method: 'POST',
        url: '/auth/signout',
        headers: { ...SESSION_HEADERS, cookie: `sAccessToken=${newAccess}` },
      });
      expect(signoutMissing.statusCode).toBe(401);
      const signout = await env.app.inject({
        method: 'POST',
        url: '/auth/signout',
        headers: { ...SESSION_HEADERS, 'anti-csrf': antiCsrf, cookie: `sAccessToken=${newAccess}` },
      });
      expect(signout.statusCode).toBe(200);
    });
  });

  describe('same-site web app (SameSite=Lax, no anti-CSRF token): Origin check and one cookie each', () => {
    const env = useTestEnv({ workers: false });
    let trusted: string;
    beforeAll(async () => {
      trusted = new URL(env.config.publicUrl).origin;
    });

    it('sets each session cookie once per response: sign-in, sign-in over a session, refresh, sign-out', async () => {
      const address = uniqueEmail('once');
      const first = await cookieSignIn(env, address);
      expect(setCookieNames(first.res)).toEqual(['sAccessToken', 'sRefreshToken']);
      const jar = `sAccessToken=${first.access.value}; sRefreshToken=${first.refresh.value}`;

      const started = await createCode(env.app, { email: address }, { headers: { cookie: jar } });
      const again = await consumeMailedCode(env, address, started, {
        headers: { 'st-auth-mode': 'cookie', cookie: jar },
      });
      expect(setCookieNames(again.res)).toEqual(['sAccessToken', 'sRefreshToken']);

      const info = await env.app.inject({
        method: 'PUT',
        url: '/auth/mfa/info',
        headers: { ...SESSION_HEADERS, 'content-type': 'application/json', cookie: jar },
        payload: {},
      });
      expect(setCookieNames(info)).toEqual(['sAccessToken']);

      const refreshed = await env.app.inject({
        method: 'POST',
        url: '/auth/session/refresh',
        headers: { ...SESSION_HEADERS, cookie: `sRefreshToken=${first.refresh.value}` },
      });
      expect(refreshed.statusCode).toBe(200);
      expect(setCookieNames(refreshed)).toEqual(['sAccessToken', 'sRefreshToken']);

      const signout = await env.app.inject({
        method: 'POST',
        url: '/auth/signout',
        headers: { ...SESSION_HEADERS, cookie: `sAccessToken=${cookies(refreshed).sAccessToken!.value}` },
      });
      expect(signout.statusCode).toBe(200);
      expect(setCookieNames(signout)).toEqual(['sAccessToken', 'sRefreshToken']);
    });

    it("refuses cookie-borne changes from another site's page and changes nothing", async () => {
      const { access, refresh } = await cookieSignIn(env, uniqueEmail('origin'));
      const cookie = `sAccessToken=${access.value}`;
      const evil = 'https://lumina.test.evil.example';

      const product = await env.app.inject({
        method: 'PUT',
        url: '/api/user/second-factors/otp-email',
        headers: { cookie, origin: evil },
      });
      expect(product.statusCode).toBe(403);
      expect(product.json()).toMatchObject({
        code: 'FORBIDDEN',
        detail: expect.stringContaining('another site'),
      });
      const unchanged = await env.app.inject({
        method: 'GET',
        url: '/api/user/second-factors',
        headers: { cookie, origin: evil },
      });
      expect(unchanged.statusCode).toBe(200);
      expect(unchanged.json().enabled).toEqual([]);

      const signout = await env.app.inject({
        method: 'POST',
        url: '/auth/signout',
        headers: { ...SESSION_HEADERS, cookie, origin: evil },
      });
      expect(signout.statusCode).toBe(400);
      expect(signout.json().message).toContain('another site');
      expect(setCookieNames(signout)).toEqual([]);
      const refreshFromEvil = await env.app.inject({
        method: 'POST',
        url: '/auth/session/refresh',
        headers: { ...SESSION_HEADERS, cookie: `sRefreshToken=${refresh.value}`, origin: evil },
      });
      expect(refreshFromEvil.statusCode).toBe(400);
      expect(setCookieNames(refreshFromEvil)).toEqual([]);
      expect(
        (await env.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } })).statusCode,
      ).toBe(200);

      // Our own pages, and header-mode callers (no ambient credential), go through.
      const ours = await env.app.inject({
        method: 'PUT',
        url: '/api/user/second-factors/otp-email',
        headers: { cookie, origin: trusted },
      });
      expect(ours.statusCode).toBe(200);
      expect(ours.json().enabled).toEqual(['otp-email']);
      const bearer = await signIn(env, uniqueEmail('bearer'));
      const fromElsewhere = await env.app.inject({
        method: 'PUT',
        url: '/api/user/second-factors/otp-email',
        headers: { authorization: `Bearer ${bearer.accessToken}`, origin: evil },
      });
      expect(fromElsewhere.statusCode).toBe(200);
    });
  });
});
