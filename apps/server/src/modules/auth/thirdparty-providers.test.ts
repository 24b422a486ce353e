import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { getUser, signIn, useFakeOidcProvider, useFakeGitHub } from './auth.test-helpers.ts';

const WEB = 'http://web.lumina.test:5173';
const API = 'http://api.lumina.test:3000';
const TP_HEADERS = { rid: 'thirdparty', 'fdi-version': '4.1', 'content-type': 'application/json' };
const callback = (id: string) => `${WEB}/auth/callback/${id}`;

describe(`third-party providers beyond Google (GitHub through arctic, GitLab through OIDC) on ${testDb}`, () => {
  const github = useFakeGitHub({ clientId: 'gh-client', clientSecret: 'gh-secret' });
  const gitlab = useFakeOidcProvider({ clientId: 'gl-client', clientSecret: 'gl-secret' });
  const env = useTestEnv(() => ({
    workers: false,
    env: {
      WEB_URL: WEB,
      PUBLIC_URL: API,
      ...github.env,
      ...gitlab.envFor('GITLAB'),
      TWITTER_CLIENT_ID: 'x-client',
      TWITTER_CLIENT_SECRET: 'x-secret',
      // Half-configured providers are refused at start-up (config test); unset ones are simply absent.
    },
  }));

  async function authorisationUrl(id: string) {
    const res = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=${id}&redirectURIOnProviderDashboard=${encodeURIComponent(callback(id))}`,
      headers: TP_HEADERS,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { status: string; urlWithQueryParams: string; pkceCodeVerifier?: string };
  }

  /** The browser's part: the provider's page approves at once and sends it back with a code and the SDK's state. */
  async function authorise(id: string, fake: { authorise(url: string): Promise<Record<string, string>> }) {
    const body = await authorisationUrl(id);
    const url = new URL(body.urlWithQueryParams);
    url.searchParams.set('state', 'sdk-state');
    return { body, query: await fake.authorise(url.toString()) };
  }

  function signInUp(id: string, query: Record<string, string>, pkceCodeVerifier?: string) {
    return env.app.inject({
      method: 'POST',
      url: '/auth/signinup',
      headers: { ...TP_HEADERS, 'st-auth-mode': 'header' },
      payload: {
        thirdPartyId: id,
        redirectURIInfo: {
          redirectURIOnProviderDashboard: callback(id),
          redirectURIQueryParams: query,
          pkceCodeVerifier,
        },
      },
    });
  }

  it('lists exactly the configured providers in GET /auth/loginmethods, with their display names', async () => {
    const methods = (await env.app.inject({ method: 'GET', url: '/auth/loginmethods' })).json();
    expect(methods.thirdParty).toEqual({
      enabled: true,
      providers: [
        { id: 'gitlab', name: 'GitLab' },
        { id: 'github', name: 'GitHub' },
        { id: 'twitter', name: 'X' },
      ],
    });
    const discord = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=discord&redirectURIOnProviderDashboard=${encodeURIComponent(callback('discord'))}`,
    });
    expect(discord.statusCode).toBe(400);
  });

  it('GitHub: authorisation URL on the configured host with PKCE and the email scope, and no state of ours', async () => {
    const body = await authorisationUrl('github');
    const url = new URL(body.urlWithQueryParams);
    expect(`${url.origin}${url.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe('gh-client');
    expect(url.searchParams.get('redirect_uri')).toBe(callback('github'));
    expect(url.searchParams.get('scope')).toBe('read:user user:email');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.has('state')).toBe(false);
    expect(body.pkceCodeVerifier).toMatch(/^[\w-]{43,128}$/);
  });

  it('GitHub: signs a new user in with the primary verified address from /user/emails, then the same user again', async () => {
    github.state.nextUser = {
      id: 9001,
      login: 'octo',
      email: null,
      emails: [
        { email: 'other@example.test', primary: false, verified: true },
        { email: 'Octo@Example.test', primary: true, verified: true },
      ],
    };
    const { body, query } = await authorise('github', github);
    expect(query.state).toBe('sdk-state');
    const res = await signInUp('github', query, body.pkceCodeVerifier);
    const result = res.json();
    expect(result).toMatchObject({
      status: 'OK',
      createdNewRecipeUser: true,
      user: {
        emails: ['octo@example.test'],
        thirdParty: [{ id: 'github', userId: '9001' }],
        loginMethods: [{ recipeId: 'thirdparty', verified: true }],
      },
    });
    expect((await getUser(env.app, String(res.headers['st-access-token']))).json()).toEqual({
      id: result.user.id,
      email: 'octo@example.test',
      is_operator: false,
      onboarded: false,
    });
    // The token request used HTTP Basic client credentials and the PKCE verifier; the API calls a User-Agent.
    const token = github.state.requests.find((r) => r.path === '/login/oauth/access_token')!;
    expect(token.headers.authorization).toBe(
      `Basic ${Buffer.from('gh-client:gh-secret').toString('base64')}`,
    );
    expect(github.state.requests.filter((r) => r.path.startsWith('/user')).map((r) => r.path)).toEqual([
      '/user',
      '/user/emails',
    ]);

    const again = await authorise('github', github);
    expect((await signInUp('github', again.query, again.body.pkceCodeVerifier)).json()).toMatchObject({
      status: 'OK',
      createdNewRecipeUser: false,
      user: { id: result.user.id },
    });
  });

  it('GitHub: links a verified address to the existing passwordless user', async () => {
    const existing = await signIn(env, 'gh-linked@example.test');
    github.state.nextUser = {
      id: 9002,
      login: 'linked',
      email: 'gh-linked@example.test',
      emails: [{ email: 'gh-linked@example.test', primary: true, verified: true }],
    };
    const { body, query } = await authorise('github', github);
    expect((await signInUp('github', query, body.pkceCodeVerifier)).json()).toMatchObject({
      status: 'OK',
      user: { id: existing.userId, isPrimaryUser: true },
    });
  });

  it('GitHub: no address at all → NO_EMAIL_GIVEN_BY_PROVIDER; a wrong verifier → GENERAL_ERROR (never 401)', async () => {
    github.state.nextUser = { id: 9003, login: 'ghost', email: null, emails: [] };
    const none = await authorise('github', github);
    expect((await signInUp('github', none.query, none.body.pkceCodeVerifier)).json()).toEqual({
      status: 'NO_EMAIL_GIVEN_BY_PROVIDER',
    });

    const wrong = await authorise('github', github);
    const res = await signInUp('github', wrong.query, 'y'.repeat(43));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'GENERAL_ERROR',
      message: 'Signing in with GitHub failed. Please try again.',
    });
    const denied = await signInUp('github', { error: 'access_denied', state: 'sdk-state' });
    expect(denied.json().status).toBe('FIELD_ERROR');
  });

  it('GitLab: signs in through the OpenID Connect preset (discovery, PKCE, id_token)', async () => {
    gitlab.state.nextUser = { sub: 'gl-1', email: 'lab@example.test', email_verified: true };
    const { body, query } = await authorise('gitlab', gitlab);
    expect(body.pkceCodeVerifier).toBeDefined();
    expect((await signInUp('gitlab', query, body.pkceCodeVerifier)).json()).toMatchObject({
      status: 'OK',
      user: { emails: ['lab@example.test'], thirdParty: [{ id: 'gitlab', userId: 'gl-1' }] },
    });
  });

  it('X: the authorisation URL goes to x.com with PKCE (X shares no email, see the adapter test)', async () => {
    const body = await authorisationUrl('twitter');
    const url = new URL(body.urlWithQueryParams);
    expect(`${url.origin}${url.pathname}`).toBe('https://x.com/i/oauth2/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('users.read tweet.read');
  });

  it("Apple's form_post callback on the API sends the browser on to the web callback page with the fields", async () => {
    const state = Buffer.from(
      JSON.stringify({ state: 's1', frontendRedirectURI: callback('apple') }),
    ).toString('base64');
    const res = await env.app.inject({
      method: 'POST',
      url: '/auth/callback/apple',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ code: 'c1', state }).toString(),
    });
    expect(res.statusCode).toBe(303);
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(callback('apple'));
    expect(Object.fromEntries(location.searchParams)).toEqual({ code: 'c1', state });

    // Anything but one of our own callback pages is ignored (no open redirect).
    const evil = Buffer.from(
      JSON.stringify({ state: 's', frontendRedirectURI: 'https://evil.test/x' }),
    ).toString('base64');
    const refused = await env.app.inject({
      method: 'POST',
      url: '/auth/callback/apple',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ code: 'c2', state: evil }).toString(),
    });
    expect(new URL(refused.headers.location as string).origin).toBe(WEB);
  });

  it('refuses an oversize Apple callback with a 400 instead of copying it into the Location header', async () => {
    const state = Buffer.from(
      JSON.stringify({ state: 's1', frontendRedirectURI: callback('apple') }),
    ).toString('base64');
    const post = (fields: Record<string, string>) =>
      env.app.inject({
        method: 'POST',
        url: '/auth/callback/apple',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ code: 'c1', state, ...fields }).toString(),
      });
    // A realistic response (an id_token and the first-sign-in user JSON) still goes through.
    const real = await post({
      id_token: 'e'.repeat(1500),
      user: JSON.stringify({ name: { firstName: 'A' } }),
    });
    expect(real.statusCode).toBe(303);

    for (const fields of [
      { user: 'x'.repeat(200_000) },
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, 'y'.repeat(4000)])),
    ]) {
      const res = await post(fields);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: expect.stringMatching(/too (large|long)/) });
      expect(res.headers.location).toBeUndefined();
    }
  });
});

describe(`EMAIL_VERIFICATION=required with a provider that shares an unverified email, on ${testDb}`, () => {
  const github = useFakeGitHub({ clientId: 'gh-client', clientSecret: 'gh-secret' });
  const env = useTestEnv(() => ({
    workers: false,
    env: {
      WEB_URL: WEB,
      EMAIL_VERIFICATION: 'required',
      ...github.env,
    },
  }));

  it('publishes the mode, stops /api with 403 st-ev until the emailed link is used, then lets the user in', async () => {
    expect((await env.app.inject({ method: 'GET', url: '/api/auth/config' })).json()).toEqual({
      emailVerification: 'required',
    });
    github.state.nextUser = {
      id: 77,
      login: 'unverified',
      email: null,
      emails: [{ email: 'later@example.test', primary: true, verified: false }],
    };
    const start = (
      await env.app.inject({
        method: 'GET',
        url: `/auth/authorisationurl?thirdPartyId=github&redirectURIOnProviderDashboard=${encodeURIComponent(callback('github'))}`,
      })
    ).json();
    const query = await github.authorise(start.urlWithQueryParams);
    const signedIn = await env.app.inject({
      method: 'POST',
      url: '/auth/signinup',
      headers: { ...TP_HEADERS, 'st-auth-mode': 'header' },
      payload: {
        thirdPartyId: 'github',
        redirectURIInfo: {
          redirectURIOnProviderDashboard: callback('github'),
          redirectURIQueryParams: query,
          pkceCodeVerifier: start.pkceCodeVerifier,
        },
      },
    });
    expect(signedIn.json()).toMatchObject({ status: 'OK', user: { loginMethods: [{ verified: false }] } });
    const access = String(signedIn.headers['st-access-token']);

    const refused = await getUser(env.app, access);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'invalid claim',
      claimValidationErrors: [{ id: 'st-ev' }],
    });

    const headers = {
      rid: 'emailverification',
      'content-type': 'application/json',
      authorization: `Bearer ${access}`,
    };
    await env.app.inject({ method: 'POST', url: '/auth/user/email/verify/token', headers, payload: {} });
    const link = new URL(env.container.services.auth.mailbox!.list({ to: 'later@example.test' })[0]!.link!);
    const verified = await env.app.inject({
      method: 'POST',
      url: '/auth/user/email/verify',
      headers,
      payload: { method: 'token', token: link.searchParams.get('token') },
    });
    expect(verified.json()).toMatchObject({ status: 'OK' });
    const renewed = String(verified.headers['st-access-token'] ?? access);
    expect((await getUser(env.app, renewed)).json()).toMatchObject({ email: 'later@example.test' });
  });
});
