import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { decodeFrontToken, getUser, signIn, useFakeOidcProvider } from './auth.test-helpers.ts';
import { passkeyCalls } from './passkey.test-helpers.ts';

const WEB = 'http://web.lumina.test:5173';
const CALLBACK = `${WEB}/auth/callback/google`;
const TP_HEADERS = {
  rid: 'thirdparty',
  'fdi-version': '3.1,4.0,4.1,4.2',
  'content-type': 'application/json',
};

describe(`third-party sign-in (Google through a local OpenID provider) on ${testDb}`, () => {
  const provider = useFakeOidcProvider({ clientId: 'lumina-client', clientSecret: 'lumina-secret' });
  const env = useTestEnv(() => ({
    workers: false,
    env: {
      WEB_URL: WEB,
      ...provider.envFor('GOOGLE'),
      TENANTS_JSON: '{"codes-only":{"firstFactors":["otp-email"]}}',
    },
  }));

  /** The browser's part: get the URL, add the client's state, visit the provider, come back with a code. */
  async function authorise() {
    const res = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=google&redirectURIOnProviderDashboard=${encodeURIComponent(CALLBACK)}`,
      headers: TP_HEADERS,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const url = new URL(body.urlWithQueryParams);
    url.searchParams.set('state', Buffer.from(JSON.stringify({ state: 'abc' })).toString('base64'));
    return { body, url, query: await provider.authorise(url.toString()) };
  }

  async function signInUp(query: Record<string, string>, pkceCodeVerifier?: string) {
    return env.app.inject({
      method: 'POST',
      url: '/auth/signinup',
      headers: { ...TP_HEADERS, 'st-auth-mode': 'header' },
      payload: {
        thirdPartyId: 'google',
        redirectURIInfo: {
          redirectURIOnProviderDashboard: CALLBACK,
          redirectURIQueryParams: query,
          pkceCodeVerifier,
        },
        shouldTryLinkingWithSessionUser: false,
      },
    });
  }

  it('offers Google in the login methods of tenants that allow it', async () => {
    const pub = (await env.app.inject({ method: 'GET', url: '/auth/loginmethods' })).json();
    expect(pub.thirdParty).toEqual({ enabled: true, providers: [{ id: 'google', name: 'Google' }] });
    expect(pub.firstFactors).toEqual(['otp-email', 'link-email', 'thirdparty', 'webauthn']);
    const codes = (await env.app.inject({ method: 'GET', url: '/auth/codes-only/loginmethods' })).json();
    expect(codes.thirdParty).toEqual({ enabled: false, providers: [] });
    const refused = await env.app.inject({
      method: 'GET',
      url: `/auth/codes-only/authorisationurl?thirdPartyId=google&redirectURIOnProviderDashboard=${encodeURIComponent(CALLBACK)}`,
    });
    expect(refused.statusCode).toBe(400);
  });

  it('builds an authorisation URL with PKCE S256 and no state of its own', async () => {
    const { body, url } = await authorise();
    expect(body.status).toBe('OK');
    expect(body.pkceCodeVerifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/authorize`);
    expect(url.searchParams.get('client_id')).toBe('lumina-client');
    expect(url.searchParams.get('redirect_uri')).toBe(CALLBACK);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toContain('email');
  });

  it('refuses unknown providers and callback addresses that are not ours', async () => {
    const unknown = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=github&redirectURIOnProviderDashboard=${encodeURIComponent(CALLBACK)}`,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({
      message: 'the provider github could not be found in the configuration',
    });
    const evil = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=google&redirectURIOnProviderDashboard=${encodeURIComponent('https://evil.test/auth/callback/google')}`,
    });
    expect(evil.statusCode).toBe(400);
  });

  it('signs a new Google user in with the code and the PKCE verifier, then the same user again', async () => {
    provider.state.nextUser = { sub: 'g-100', email: 'Gina@Example.test', email_verified: true };
    const { body, query } = await authorise();
    const res = await signInUp(query, body.pkceCodeVerifier);
    expect(res.statusCode).toBe(200);
    const result = res.json();
    expect(result).toMatchObject({
      status: 'OK',
      createdNewRecipeUser: true,
      user: {
        emails: ['gina@example.test'],
        thirdParty: [{ id: 'google', userId: 'g-100' }],
        loginMethods: [
          { recipeId: 'thirdparty', verified: true, thirdParty: { id: 'google', userId: 'g-100' } },
        ],
      },
    });
    const token = String(res.headers['st-access-token']);
    expect((await getUser(env.app, token)).json()).toEqual({
      id: result.user.id,
      email: 'gina@example.test',
      is_operator: false,
      onboarded: false,
    });
    expect(decodeFrontToken(String(res.headers['front-token'])).up['st-mfa']).toMatchObject({
      c: { thirdparty: expect.any(Number) },
    });
    const tokenRequest = provider.state.tokenRequests.at(-1)!;
    expect(tokenRequest.code_verifier).toBe(body.pkceCodeVerifier);

    const again = await authorise();
    const second = (await signInUp(again.query, again.body.pkceCodeVerifier)).json();
    expect(second).toMatchObject({ status: 'OK', createdNewRecipeUser: false, user: { id: result.user.id } });
  });

  it('fails cleanly (200 GENERAL_ERROR, never 401) for a wrong verifier or a reused code', async () => {
    provider.state.nextUser = { sub: 'g-200', email: 'pkce@example.test', email_verified: true };
    const { query } = await authorise();
    const wrong = await signInUp(query, 'x'.repeat(43));
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toEqual({
      status: 'GENERAL_ERROR',
      message: 'Signing in with Google failed. Please try again.',
    });
    const reused = await signInUp(query, 'x'.repeat(43));
    expect(reused.json().status).toBe('GENERAL_ERROR');
    const noCode = await signInUp({ state: 'abc' });
    expect(noCode.json()).toMatchObject({ status: 'FIELD_ERROR', error: expect.any(String) });
  });

  it('answers NO_EMAIL_GIVEN_BY_PROVIDER when the provider has no email; reads userinfo when the id_token lacks it', async () => {
    provider.state.nextUser = { sub: 'g-300' };
    const none = await authorise();
    expect((await signInUp(none.query, none.body.pkceCodeVerifier)).json()).toEqual({
      status: 'NO_EMAIL_GIVEN_BY_PROVIDER',
    });

    provider.state.nextUser = { sub: 'g-301', email: 'info@example.test', email_verified: true };
    provider.state.emailOnlyInUserinfo = true;
    try {
      const info = await authorise();
      expect((await signInUp(info.query, info.body.pkceCodeVerifier)).json()).toMatchObject({
        status: 'OK',
        user: { emails: ['info@example.test'] },
      });
    } finally {
      provider.state.emailOnlyInUserinfo = false;
    }
  });

  it('links a verified Google email to the existing passwordless user; refuses an unverified one', async () => {
    const existing = await signIn(env, 'linked@example.test');
    provider.state.nextUser = { sub: 'g-400', email: 'linked@example.test', email_verified: true };
    const linked = await authorise();
    const res = (await signInUp(linked.query, linked.body.pkceCodeVerifier)).json();
    expect(res).toMatchObject({
      status: 'OK',
      createdNewRecipeUser: true,
      user: { id: existing.userId, isPrimaryUser: true },
    });
    expect(res.user.loginMethods.map((m: { recipeId: string }) => m.recipeId).sort()).toEqual([
      'passwordless',
      'thirdparty',
    ]);

    await signIn(env, 'victim@example.test');
    provider.state.nextUser = { sub: 'g-401', email: 'victim@example.test', email_verified: false };
    const attacker = await authorise();
    expect((await signInUp(attacker.query, attacker.body.pkceCodeVerifier)).json()).toMatchObject({
      status: 'SIGN_IN_UP_NOT_ALLOWED',
    });
  });

  it('keeps an unverified Google email off the user row until it is verified by link', async () => {
    provider.state.nextUser = { sub: 'g-500', email: 'unverified@example.test', email_verified: false };
    const flow = await authorise();
    const res = await signInUp(flow.query, flow.body.pkceCodeVerifier);
    const body = res.json();
    expect(body).toMatchObject({ status: 'OK', user: { loginMethods: [{ verified: false }] } });
    const headers = {
      rid: 'emailverification',
      'content-type': 'application/json',
      authorization: `Bearer ${String(res.headers['st-access-token'])}`,
    };
    const state = await env.app.inject({ method: 'GET', url: '/auth/user/email/verify', headers });
    expect(state.json()).toEqual({ status: 'OK', isVerified: false });
    expect(decodeFrontToken(String(state.headers['front-token'])).up['st-ev']).toMatchObject({ v: false });

    const sent = await env.app.inject({
      method: 'POST',
      url: '/auth/user/email/verify/token',
      headers,
      payload: {},
    });
    expect(sent.json()).toEqual({ status: 'OK' });
    const mail = env.container.services.auth.mailbox!.list({ to: 'unverified@example.test' })[0]!;
    const link = new URL(mail.link!);
    expect(`${link.origin}${link.pathname}`).toBe(`${WEB}/auth/verify-email`);
    expect(link.searchParams.get('tenantId')).toBe('public');
    const verify = await env.app.inject({
      method: 'POST',
      url: '/auth/user/email/verify',
      headers,
      payload: { method: 'token', token: link.searchParams.get('token') },
    });
    expect(verify.json()).toEqual({
      status: 'OK',
      user: { id: body.user.id, email: 'unverified@example.test' },
    });
    expect(decodeFrontToken(String(verify.headers['front-token'])).up['st-ev']).toMatchObject({ v: true });
    const reuse = await env.app.inject({
      method: 'POST',
      url: '/auth/user/email/verify',
      headers,
      payload: { method: 'token', token: link.searchParams.get('token') },
    });
    expect(reuse.json()).toEqual({ status: 'EMAIL_VERIFICATION_INVALID_TOKEN_ERROR' });
    const again = await env.app.inject({ method: 'GET', url: '/auth/user/email/verify', headers });
    expect(again.json()).toEqual({ status: 'OK', isVerified: true });
  });

  it('a verified Google address takes the address from a passkey sign-up that only typed it', async () => {
    const { passkeySignUp, accessOf } = passkeyCalls(env);
    const squatter = await passkeySignUp('typed-only@example.test');
    expect(squatter.body.status).toBe('OK');
    provider.state.nextUser = { sub: 'g-typed', email: 'typed-only@example.test', email_verified: true };
    const { query, body } = await authorise();
    const owner = (await signInUp(query, body.pkceCodeVerifier)).json();
    expect(owner).toMatchObject({ status: 'OK', user: { emails: ['typed-only@example.test'] } });
    expect(owner.user.id).not.toBe(squatter.body.user.id);
    expect((await getUser(env.app, accessOf(squatter))).json()).toMatchObject({ email: null });
  });
});
