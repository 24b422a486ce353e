import * as oidc from 'openid-client';
import { Secret, TOTP } from 'otpauth';
import { lt } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { authOauthPayloads } from '../../db/schema/index.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { authOf, getUser, SESSION_HEADERS, signIn, uniqueEmail, useFakeClock } from './auth.test-helpers.ts';

/**
 * "Sign in with Lumina" through a listening server with a real relying party (openid-client v6):
 * discovery, authorisation code with PKCE driven through our FDI routes with a real session, code
 * exchange with the id_token validated, userinfo, refresh, introspection, revocation, end_session.
 */

const SECRET = 'a-client-secret-of-at-least-32-characters';
const REDIRECT = 'http://127.0.0.1:9/callback';
const AFTER_LOGOUT = 'http://127.0.0.1:9/signed-out';
const CLIENTS = [
  {
    client_id: 'studio',
    client_secret: SECRET,
    name: 'Lumina Studio',
    logo_uri: 'https://studio.example/logo.png',
    client_uri: 'https://studio.example',
    redirect_uris: [REDIRECT],
    post_logout_redirect_uris: [AFTER_LOGOUT],
    first_party: true,
  },
  { client_id: 'mobile', name: 'Lumina Mobile', redirect_uris: [REDIRECT], first_party: true },
];

/** A browser's cookies for the API host (names only: paths do not matter to these tests). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

describe(`Sign in with Lumina (OpenID provider), on ${testDb}`, () => {
  const env = useTestEnv({
    listen: true,
    workers: false,
    env: {
      OAUTH_CLIENTS_JSON: JSON.stringify(CLIENTS),
      AUTH_RATE_LIMIT_PER_IP: '100000',
      AUTH_RATE_LIMIT_PER_CONTACT: '10000',
    },
  });
  // The sign-in layer's clock (sessions, TOTP, and the expiry of the provider's stored rows); the last
  // tests move it forward.
  const clock = useFakeClock(env);
  let base: string;
  let config: oidc.Configuration;
  beforeAll(async () => {
    base = env.baseUrl!;
    config = await oidc.discovery(
      new URL(`${base}/auth`),
      'studio',
      undefined,
      oidc.ClientSecretBasic(SECRET),
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
  });

  const get = (jar: Jar, url: string, headers: Record<string, string> = {}) =>
    fetch(url, { redirect: 'manual', headers: { cookie: jar.header(), ...headers } }).then((r) =>
      jar.take(r),
    );

  /** The relying party sends the browser to /oauth/auth; we follow it to the sign-in page. */
  async function startAuthorisation(jar: Jar, extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...extra,
    });
    const res = await get(jar, url.href);
    expect(res.status).toBe(303);
    const page = new URL(res.headers.get('location')!);
    expect(page.pathname).toBe('/auth');
    return { verifier, state, loginChallenge: page.searchParams.get('loginChallenge')! };
  }

  const sdkHeaders = (accessToken: string) => ({
    ...SESSION_HEADERS,
    rid: 'oauth2provider',
    'st-auth-mode': 'header',
    authorization: `Bearer ${accessToken}`,
  });

  async function login(jar: Jar, loginChallenge: string, accessToken: string) {
    return get(
      jar,
      `${base}/auth/oauth/login?loginChallenge=${encodeURIComponent(loginChallenge)}`,
      sdkHeaders(accessToken),
    );
  }

  /** Signs in, finishes the login step and follows the resume URL to the client's redirect URI. */
  async function authorise(email: string) {
    const jar = new Jar();
    const started = await startAuthorisation(jar);
    const person = await signIn(env, email);
    const res = await login(jar, started.loginChallenge, person.accessToken);
    expect(res.status).toBe(200);
    const { frontendRedirectTo } = (await res.json()) as { frontendRedirectTo: string };
    const back = await get(jar, frontendRedirectTo);
    expect(back.status).toBe(303);
    const callback = new URL(back.headers.get('location')!);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    return { jar, person, tokens };
  }

  it('publishes its discovery document at {PUBLIC_URL}/auth with the FDI paths', () => {
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(`${base}/auth`);
    expect(meta.authorization_endpoint).toBe(`${base}/auth/oauth/auth`);
    expect(meta.token_endpoint).toBe(`${base}/auth/oauth/token`);
    expect(meta.userinfo_endpoint).toBe(`${base}/auth/oauth/userinfo`);
    expect(meta.revocation_endpoint).toBe(`${base}/auth/oauth/revoke`);
    expect(meta.introspection_endpoint).toBe(`${base}/auth/oauth/introspect`);
    expect(meta.end_session_endpoint).toBe(`${base}/auth/oauth/end_session`);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('shows the client on the sign-in card: GET /oauth/login/info', async () => {
    const { loginChallenge } = await startAuthorisation(new Jar());
    const res = await fetch(`${base}/auth/oauth/login/info?loginChallenge=${loginChallenge}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'OK',
      info: {
        clientId: 'studio',
        clientName: 'Lumina Studio',
        logoUri: 'https://studio.example/logo.png',
        clientUri: 'https://studio.example',
        metadata: {},
      },
    });
  });

  it('signs in, exchanges the code (id_token validated), reads userinfo, refreshes, introspects, revokes', async () => {
    const email = uniqueEmail('rp');
    const { person, tokens } = await authorise(email);
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(person.userId);
    expect(claims.iss).toBe(`${base}/auth`);
    expect(claims.aud).toBe('studio');
    expect(tokens.refresh_token).toBeTruthy();

    const info = await oidc.fetchUserInfo(config, tokens.access_token, person.userId);
    expect(info).toEqual({ sub: person.userId, email, email_verified: true });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, person.userId)).sub).toBe(person.userId);

    const active = await oidc.tokenIntrospection(config, refreshed.access_token);
    expect(active).toMatchObject({ active: true, sub: person.userId, client_id: 'studio' });

    await oidc.tokenRevocation(config, refreshed.refresh_token ?? tokens.refresh_token!);
    await expect(
      oidc.refreshTokenGrant(config, refreshed.refresh_token ?? tokens.refresh_token!),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it("ends the app's tokens when the Lumina session ends: sign-out, and sign-out of every device", async () => {
    const out = await authorise(uniqueEmail('lumina-signout'));
    const other = await authorise(uniqueEmail('bystander'));
    expect((await oidc.refreshTokenGrant(config, out.tokens.refresh_token!)).access_token).toBeTruthy();
    const signout = await env.app.inject({
      method: 'POST',
      url: '/auth/signout',
      headers: sdkHeaders(out.person.accessToken),
    });
    expect(signout.statusCode).toBe(200);
    await expect(oidc.refreshTokenGrant(config, out.tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(config, out.tokens.access_token, out.person.userId)).rejects.toThrow();
    // Someone else's app session is untouched.
    expect((await oidc.refreshTokenGrant(config, other.tokens.refresh_token!)).access_token).toBeTruthy();

    const everywhere = await authorise(uniqueEmail('lumina-everywhere'));
    const revoke = await env.app.inject({
      method: 'DELETE',
      url: '/api/user/sessions',
      headers: { authorization: `Bearer ${everywhere.person.accessToken}` },
    });
    expect(revoke.statusCode).toBe(200);
    await expect(oidc.refreshTokenGrant(config, everywhere.tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('ends the session: end_session → the SDK logout page → POST /oauth/logout → the client', async () => {
    const { jar, person, tokens } = await authorise(uniqueEmail('logout'));
    const url = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: AFTER_LOGOUT,
      state: 'bye',
    });
    const start = await get(jar, url.href);
    expect(start.status).toBe(303);
    const page = new URL(start.headers.get('location')!);
    expect(page.pathname).toBe('/auth/oauth/logout');
    const logoutChallenge = page.searchParams.get('logoutChallenge')!;

    const res = await fetch(`${base}/auth/oauth/logout`, {
      method: 'POST',
      headers: { ...sdkHeaders(person.accessToken), 'content-type': 'application/json' },
      body: JSON.stringify({ logoutChallenge }),
    });
    expect(res.status).toBe(200);
    const { frontendRedirectTo } = (await res.json()) as { frontendRedirectTo: string };
    // Logging out of the app signs out of Lumina.
    expect((await getUser(env.app, person.accessToken)).statusCode).toBe(401);

    const form = await get(jar, frontendRedirectTo);
    expect(form.status).toBe(200);
    const html = await form.text();
    const action = /action="([^"]+)"/.exec(html)![1]!.replace(/&#38;/g, '&');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const done = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${AFTER_LOGOUT}?state=bye`);
    // The SDK's page confirms twice (its own session ends mid-way) and so opens this page twice; a
    // visit after the form was accepted goes where the first went, not to "xsrf token invalid".
    const again = await get(jar, frontendRedirectTo);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(`${AFTER_LOGOUT}?state=bye`);
    // The grant went with the session: the app's tokens no longer work.
    await expect(oidc.fetchUserInfo(config, tokens.access_token, person.userId)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it("does not let one person's session finish another person's login challenge", async () => {
    const aliceBrowser = new Jar();
    const alice = await startAuthorisation(aliceBrowser);
    const mallory = await signIn(env, uniqueEmail('mallory'));
    // From Mallory's own browser (without Alice's interaction cookie): refused.
    const res = await login(new Jar(), alice.loginChallenge, mallory.accessToken);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: expect.stringMatching(/another browser/) });
    // Alice then signs in and gets tokens for herself.
    const aliceSession = await signIn(env, uniqueEmail('alice'));
    const ok = await login(aliceBrowser, alice.loginChallenge, aliceSession.accessToken);
    expect(ok.status).toBe(200);
    const back = await get(
      aliceBrowser,
      ((await ok.json()) as { frontendRedirectTo: string }).frontendRedirectTo,
    );
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.headers.get('location')!), {
      pkceCodeVerifier: alice.verifier,
      expectedState: alice.state,
    });
    expect(tokens.claims()!.sub).toBe(aliceSession.userId);
  });

  it('answers bad input with 4xx in the OAuth and FDI error shapes', async () => {
    const jar = new Jar();
    const authUrl = (params: Record<string, string>) =>
      `${base}/auth/oauth/auth?${new URLSearchParams({ response_type: 'code', scope: 'openid', ...params })}`;
    const challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };

    const unknown = await get(jar, authUrl({ client_id: 'nobody', redirect_uri: REDIRECT, ...pkce }));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_client' });

    const badRedirect = await get(
      jar,
      authUrl({ client_id: 'studio', redirect_uri: 'https://evil.example/cb', ...pkce }),
    );
    expect(badRedirect.status).toBe(400);
    expect(await badRedirect.json()).toMatchObject({ error: 'invalid_redirect_uri' });

    // Without PKCE the error goes back to the (registered) redirect URI, as OAuth says.
    const noPkce = await get(jar, authUrl({ client_id: 'studio', redirect_uri: REDIRECT, state: 's' }));
    expect(noPkce.status).toBe(303);
    const location = new URL(noPkce.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);

    const person = await signIn(env, uniqueEmail('bad-input'));
    for (const challengeValue of ['nope', 'x'.repeat(600), '../../etc']) {
      const info = await fetch(
        `${base}/auth/oauth/login/info?loginChallenge=${encodeURIComponent(challengeValue)}`,
      );
      expect(info.status).toBe(400);
      expect(await info.json()).toEqual({ message: expect.any(String) });
      const res = await login(jar, challengeValue, person.accessToken);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ message: expect.any(String) });
    }
    const missing = await fetch(`${base}/auth/oauth/login/info`);
    expect(missing.status).toBe(400);

    const logout = await fetch(`${base}/auth/oauth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', rid: 'oauth2provider' },
      body: JSON.stringify({ logoutChallenge: 'nope' }),
    });
    expect(logout.status).toBe(400);
    expect(await logout.json()).toEqual({ message: expect.any(String) });

    const token = await fetch(`${base}/auth/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`studio:${SECRET}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'no\u0000such',
        redirect_uri: REDIRECT,
      }),
    });
    expect(token.status).toBe(400);
    expect(await token.json()).toMatchObject({ error: 'invalid_grant' });

    const userinfo = await fetch(`${base}/auth/oauth/userinfo`, {
      headers: { authorization: 'Bearer \u00e9nope' },
    });
    expect(userinfo.status).toBeGreaterThanOrEqual(400);
    expect(userinfo.status).toBeLessThan(500);
  });

  it('needs a session for /oauth/login (401 try refresh token)', async () => {
    const { loginChallenge } = await startAuthorisation(new Jar());
    const res = await fetch(`${base}/auth/oauth/login?loginChallenge=${loginChallenge}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'try refresh token' });
  });

  it('a signed-in person arriving with a login challenge continues at once; each authorisation asks the card again', async () => {
    const email = uniqueEmail('again');
    const first = await authorise(email);
    // The same browser, with the provider's session cookie: still sent to the sign-in card first.
    const again = await startAuthorisation(first.jar);
    const res = await login(first.jar, again.loginChallenge, first.person.accessToken);
    expect(res.status).toBe(200);
    const back = await get(
      first.jar,
      ((await res.json()) as { frontendRedirectTo: string }).frontendRedirectTo,
    );
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.headers.get('location')!), {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
    });
    expect(tokens.claims()!.sub).toBe(first.person.userId);
  });

  it('finishes MFA before an authorisation completes', async () => {
    const email = uniqueEmail('mfa');
    const first = await signIn(env, email);
    const totp = (path: string, token: string, payload: object) =>
      env.app.inject({
        method: 'POST',
        url: `/auth/totp/${path}`,
        headers: { rid: 'totp', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload,
      });
    const code = (secret: string) =>
      TOTP.generate({
        secret: Secret.fromBase32(secret),
        digits: 6,
        period: 30,
        timestamp: authOf(env).clock.now(),
      });
    const { secret } = (await totp('device', first.accessToken, {})).json() as { secret: string };
    expect(
      (
        await totp('device/verify', first.accessToken, { deviceName: 'TOTP Device 1', totp: code(secret) })
      ).json(),
    ).toMatchObject({ status: 'OK' });
    clock.advance(31_000);

    const jar = new Jar();
    const started = await startAuthorisation(jar);
    const halfway = await signIn(env, email);
    expect(halfway.frontToken.up['st-mfa']).toMatchObject({ v: false });
    // Back to the card with the challenge: the SDK sends the person to the TOTP step and returns here.
    const pending = await login(jar, started.loginChallenge, halfway.accessToken);
    expect(pending.status).toBe(200);
    expect(await pending.json()).toEqual({
      frontendRedirectTo: `${env.config.auth.webUrl}/auth?loginChallenge=${started.loginChallenge}`,
    });
    const verified = await totp('verify', halfway.accessToken, { totp: code(secret) });
    expect(verified.json()).toEqual({ status: 'OK' });
    const done = await login(jar, started.loginChallenge, String(verified.headers['st-access-token']));
    const { frontendRedirectTo } = (await done.json()) as { frontendRedirectTo: string };
    expect(frontendRedirectTo).toBe(`${base}/auth/oauth/auth/${started.loginChallenge}`);
    const back = await get(jar, frontendRedirectTo);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.headers.get('location')!), {
      pkceCodeVerifier: started.verifier,
      expectedState: started.state,
    });
    expect(tokens.claims()!.sub).toBe(first.userId);
  });

  it('honours the expiry of stored rows: a login challenge older than an hour is unknown', async () => {
    const { loginChallenge } = await startAuthorisation(new Jar());
    clock.advance(3601_000);
    const res = await fetch(`${base}/auth/oauth/login/info?loginChallenge=${loginChallenge}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: expect.stringMatching(/expired or does not exist/) });
    // The next provider request, an hour after the last sweep, deletes the expired rows.
    await fetch(`${base}/auth/.well-known/openid-configuration`);
    const expired = () =>
      env.container.database.db
        .select()
        .from(authOauthPayloads)
        .where(lt(authOauthPayloads.expiresAt, new Date(authOf(env).clock.now())));
    // The sweep runs beside the request (nobody awaits it), on another pooled connection on PostgreSQL.
    await vi.waitFor(async () => expect(await expired()).toEqual([]), { timeout: 10_000, interval: 100 });
  });
});
