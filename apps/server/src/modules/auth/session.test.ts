import {
  createLocalJWKSet,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  decodeJwt,
  decodeProtectedHeader,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, useTestEnv } from '../../../test/harness.ts';
import {
  authOf,
  decodeFrontToken,
  fakeClock,
  getUser,
  refresh,
  SESSION_HEADERS,
  signIn,
  uniqueEmail,
  useFakeClock,
} from './auth.test-helpers.ts';

describe(`sessions (header mode) on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      ACCESS_TOKEN_LIFETIME_SECONDS: '7200',
      JWT_KEY_ROTATION_HOURS: '1',
      REFRESH_TOKEN_REUSE_GRACE_SECONDS: '5',
    },
  });
  const clock = useFakeClock(env);
  const hookCalls: Array<{ id: string; email: string | null; isNewUser: boolean }> = [];
  beforeAll(() => {
    authOf(env).hooks.onSignIn((user, ctx) => {
      hookCalls.push({ ...user, isNewUser: ctx.isNewUser });
    });
  });

  it('answers an anonymous refresh with a clean 401 and the clear set', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/auth/session/refresh',
      headers: SESSION_HEADERS,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'unauthorised' });
    expect(res.headers['front-token']).toBe('remove');
    expect(res.headers['st-access-token']).toBe('');
    expect(res.headers['st-refresh-token']).toBe('');
    expect(String(res.headers['access-control-expose-headers'])).toContain('front-token');
  });

  it('signs a new user in: tokens, front-token, FDI user object, /api/user and the sign-in hook', async () => {
    const address = uniqueEmail('new');
    const first = await signIn(env, address);
    expect(first.body.createdNewRecipeUser).toBe(true);
    expect(first.body.user).toMatchObject({
      id: first.userId,
      isPrimaryUser: false,
      tenantIds: ['public'],
      emails: [address],
      phoneNumbers: [],
      thirdParty: [],
      webauthn: { credentialIds: [] },
      loginMethods: [
        {
          recipeId: 'passwordless',
          recipeUserId: first.userId,
          tenantIds: ['public'],
          verified: true,
          email: address,
        },
      ],
    });
    expect(first.refreshToken.length).toBeGreaterThan(40);
    expect(String(first.res.headers['access-control-expose-headers'])).toContain('st-access-token');

    // front-token: standard base64 JSON, ate in ms, up = the JWT payload with the st-mfa claim.
    const ft = first.frontToken;
    expect(ft.uid).toBe(first.userId);
    expect(ft.ate).toBe(ft.up.exp * 1000);
    expect(ft.ate).toBeGreaterThan(Date.now());
    expect(ft.up).toEqual(decodeJwt(first.accessToken));
    expect(ft.up).toMatchObject({ sub: first.userId, rsub: first.userId, tId: 'public' });
    expect(ft.up['st-mfa']).toEqual({ c: { 'otp-email': expect.any(Number) }, v: true });
    expect(ft.up['st-ev']).toBeUndefined();

    const me = await getUser(env.app, first.accessToken);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ id: first.userId, email: address, is_operator: false, onboarded: false });

    const again = await signIn(env, address);
    expect(again.body.createdNewRecipeUser).toBe(false);
    expect(again.userId).toBe(first.userId);
    expect(again.frontToken.up.sessionHandle).not.toBe(first.frontToken.up.sessionHandle);
    expect(hookCalls.filter((c) => c.email === address)).toEqual([
      { id: first.userId, email: address, isNewUser: true },
      { id: first.userId, email: address, isNewUser: false },
    ]);
  });

  it('refuses /api/user without a valid token with a 401 {detail}', async () => {
    const none = await env.app.inject({ method: 'GET', url: '/api/user' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'UNAUTHORISED', detail: expect.any(String) });
    const garbage = await getUser(env.app, 'not-a-jwt');
    expect(garbage.statusCode).toBe(401);
    expect(garbage.json()).toMatchObject({ code: 'UNAUTHORISED' });
  });

  it('never lets a token speak for another user (cross-user)', async () => {
    const a = await signIn(env, uniqueEmail('a'));
    const b = await signIn(env, uniqueEmail('b'));
    expect((await getUser(env.app, a.accessToken)).json().id).toBe(a.userId);
    expect((await getUser(env.app, b.accessToken)).json().id).toBe(b.userId);

    // A's token with B's subject: the signature no longer matches.
    const [header, , signature] = a.accessToken.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...decodeJwt(a.accessToken), sub: b.userId }),
    ).toString('base64url');
    expect((await getUser(env.app, `${header}.${forgedPayload}.${signature}`)).statusCode).toBe(401);

    // A token signed by a key we never issued, naming our kid.
    const { privateKey } = await generateKeyPair('RS256');
    const kid = decodeProtectedHeader(a.accessToken).kid!;
    const foreign = await new SignJWT({ ...decodeJwt(a.accessToken), sub: b.userId })
      .setProtectedHeader({ alg: 'RS256', kid })
      .sign(privateKey);
    expect((await getUser(env.app, foreign)).statusCode).toBe(401);

    // Signing out A leaves B's session untouched.
    await env.app.inject({
      method: 'POST',
      url: '/auth/signout',
      headers: { ...SESSION_HEADERS, authorization: `Bearer ${a.accessToken}` },
    });
    expect((await getUser(env.app, a.accessToken)).statusCode).toBe(401);
    expect((await getUser(env.app, b.accessToken)).json().id).toBe(b.userId);
  });

  it('rotates the refresh token on every refresh and detects reuse as theft', async () => {
    const s = await signIn(env, uniqueEmail('rotate'));
    const r1 = await refresh(env.app, s.refreshToken);
    expect(r1.statusCode).toBe(200);
    expect(r1.json()).toEqual({});
    const ft = decodeFrontToken(String(r1.headers['front-token']));
    expect(ft.up.sessionHandle).toBe(s.frontToken.up.sessionHandle);
    const access2 = String(r1.headers['st-access-token']);
    const refresh2 = String(r1.headers['st-refresh-token']);
    expect(refresh2).not.toBe(s.refreshToken);
    expect((await getUser(env.app, access2)).statusCode).toBe(200);

    // The successor is used, so presenting the spent token again is theft: the session ends.
    const r2 = await refresh(env.app, refresh2);
    expect(r2.statusCode).toBe(200);
    const reuse = await refresh(env.app, s.refreshToken);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ message: 'token theft detected' });
    expect(reuse.headers['front-token']).toBe('remove');
    expect(reuse.headers['st-access-token']).toBe('');
    expect((await refresh(env.app, String(r2.headers['st-refresh-token']))).statusCode).toBe(401);
    expect((await getUser(env.app, String(r2.headers['st-access-token']))).statusCode).toBe(401);
  });

  it('lets a lost refresh response be retried within the grace window, then treats reuse as theft', async () => {
    const s = await signIn(env, uniqueEmail('grace'));
    const lost = await refresh(env.app, s.refreshToken);
    expect(lost.statusCode).toBe(200);
    const retry = await refresh(env.app, s.refreshToken);
    expect(retry.statusCode).toBe(200);
    const retried = String(retry.headers['st-refresh-token']);
    expect((await getUser(env.app, String(retry.headers['st-access-token']))).statusCode).toBe(200);
    clock.advance(6_000);
    const late = await refresh(env.app, s.refreshToken);
    expect(late.json()).toEqual({ message: 'token theft detected' });
    expect((await refresh(env.app, retried)).statusCode).toBe(401);
  });

  it('never lets a replay within the grace window keep the session while its owner is signed out', async () => {
    const owner = await signIn(env, uniqueEmail('replay'));
    const stolen = owner.refreshToken;
    const ownerRefresh = await refresh(env.app, stolen);
    expect(ownerRefresh.statusCode).toBe(200);

    // Within the grace window the spent token still answers (it may be a lost response)…
    const replay = await refresh(env.app, stolen);
    expect(replay.statusCode).toBe(200);
    const replayAccess = String(replay.headers['st-access-token']);
    const replayRefresh = String(replay.headers['st-refresh-token']);
    expect((await getUser(env.app, replayAccess)).statusCode).toBe(200);

    // …but the owner's successor it replaced is theft when it turns up: the session ends for both.
    const ownerNext = await refresh(env.app, String(ownerRefresh.headers['st-refresh-token']));
    expect(ownerNext.statusCode).toBe(401);
    expect(ownerNext.json()).toEqual({ message: 'token theft detected' });
    expect(ownerNext.headers['front-token']).toBe('remove');
    expect((await getUser(env.app, replayAccess)).statusCode).toBe(401);
    expect((await refresh(env.app, replayRefresh)).statusCode).toBe(401);
  });

  it('answers an expired access token with 401 "try refresh token", and refresh brings it back', async () => {
    const s = await signIn(env, uniqueEmail('expire'));
    clock.advance(7_201_000);
    expect((await getUser(env.app, s.accessToken)).statusCode).toBe(401);
    const signout = await env.app.inject({
      method: 'POST',
      url: '/auth/signout',
      headers: { ...SESSION_HEADERS, authorization: `Bearer ${s.accessToken}` },
    });
    expect(signout.statusCode).toBe(401);
    expect(signout.json()).toEqual({ message: 'try refresh token' });
    const r = await refresh(env.app, s.refreshToken);
    expect(r.statusCode).toBe(200);
    expect((await getUser(env.app, String(r.headers['st-access-token']))).statusCode).toBe(200);
  });

  it('refuses an expired refresh token', async () => {
    const short = await startTestEnv({ workers: false, env: { REFRESH_TOKEN_LIFETIME_MINUTES: '1' } });
    try {
      const c = fakeClock(short);
      const s = await signIn(short, uniqueEmail('short'));
      c.advance(61_000);
      const r = await refresh(short.app, s.refreshToken);
      expect(r.statusCode).toBe(401);
      expect(r.json()).toEqual({ message: 'unauthorised' });
    } finally {
      await short.close();
    }
  });

  it('signs out: 200, front-token remove, and both tokens stop working', async () => {
    const s = await signIn(env, uniqueEmail('out'));
    const res = await env.app.inject({
      method: 'POST',
      url: '/auth/signout',
      headers: { ...SESSION_HEADERS, authorization: `Bearer ${s.accessToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    expect(res.headers['front-token']).toBe('remove');
    expect((await getUser(env.app, s.accessToken)).statusCode).toBe(401);
    expect((await refresh(env.app, s.refreshToken)).statusCode).toBe(401);
    const again = await env.app.inject({ method: 'POST', url: '/auth/signout', headers: SESSION_HEADERS });
    expect(again.statusCode).toBe(401);
  });

  it('publishes the JWKS and keeps verifying tokens signed by a rotated-out key', async () => {
    const before = await signIn(env, uniqueEmail('keys'));
    const jwks1 = (await env.app.inject({ method: 'GET', url: '/auth/jwt/jwks.json' })).json();
    const kid1 = decodeProtectedHeader(before.accessToken).kid;
    expect(jwks1.keys.map((k: { kid: string }) => k.kid)).toContain(kid1);
    expect(jwks1.keys.every((k: Record<string, unknown>) => !('d' in k))).toBe(true);
    const verified = await jwtVerify(before.accessToken, createLocalJWKSet(jwks1), {
      currentDate: new Date(authOf(env).clock.now()),
    });
    expect(verified.payload.sub).toBe(before.userId);

    clock.advance(61 * 60_000); // past the 1-hour rotation, within the 2-hour token lifetime
    const after = await signIn(env, uniqueEmail('keys2'));
    const kid2 = decodeProtectedHeader(after.accessToken).kid;
    expect(kid2).not.toBe(kid1);
    const jwks2 = (await env.app.inject({ method: 'GET', url: '/auth/jwt/jwks.json' })).json();
    expect(jwks2.keys.map((k: { kid: string }) => k.kid)).toEqual(expect.arrayContaining([kid1, kid2]));
    expect((await getUser(env.app, before.accessToken)).statusCode).toBe(200);
    expect((await getUser(env.app, after.accessToken)).statusCode).toBe(200);

    // Once every token the old key signed has expired, it leaves the JWKS.
    clock.advance(3 * 3_600_000);
    const jwks3 = (await env.app.inject({ method: 'GET', url: '/auth/jwt/jwks.json' })).json();
    expect(jwks3.keys.map((k: { kid: string }) => k.kid)).not.toContain(kid1);
  });

  it('refuses claims that fail on /api with 403 claimValidationErrors; /auth/mfa/info skips them and re-syncs', async () => {
    const s = await signIn(env, uniqueEmail('claims'));
    const { tokens } = await authOf(env).sessions.updateClaims(s.frontToken.up.sessionHandle, {
      'st-mfa': { c: {}, v: false },
    });
    const blocked = await getUser(env.app, tokens.accessToken);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({
      message: 'invalid claim',
      claimValidationErrors: [{ id: 'st-mfa' }],
      code: 'FORBIDDEN',
      detail: expect.any(String),
    });
    const info = await env.app.inject({
      method: 'PUT',
      url: '/auth/mfa/info',
      headers: {
        rid: 'multifactorauth',
        'content-type': 'application/json',
        authorization: `Bearer ${tokens.accessToken}`,
      },
      payload: {},
    });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      status: 'OK',
      factors: { next: [], alreadySetup: ['otp-email'], allowedToSetup: ['otp-email', 'totp', 'webauthn'] },
      emails: { 'otp-email': [expect.stringContaining('claims-')] },
      phoneNumbers: { 'otp-phone': [] },
    });
    expect(info.headers['st-refresh-token']).toBeUndefined();
    const synced = decodeFrontToken(String(info.headers['front-token']));
    expect(synced.up['st-mfa']).toMatchObject({ v: true });
    expect((await getUser(env.app, String(info.headers['st-access-token']))).statusCode).toBe(200);
    const noSession = await env.app.inject({ method: 'PUT', url: '/auth/mfa/info', payload: {} });
    expect(noSession.statusCode).toBe(401);
  });
});
