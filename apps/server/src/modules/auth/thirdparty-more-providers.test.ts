import { generateKeyPairSync } from 'node:crypto';
import { importSPKI, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import {
  startFakeBitbucket,
  startFakeDiscord,
  startFakeFacebook,
} from '../../../test/fakes/oauth2-providers.ts';
import { readFormPost, startFakeOidcProvider, type FakeOidcUser } from '../../../test/fakes/oidc-provider.ts';
import { getUser, signIn, useFakeServer } from './auth.test-helpers.ts';
import { FACEBOOK_GRAPH_VERSION } from './oauth2.providers.ts';

/**
 * Active Directory (Microsoft Entra ID), Okta, Apple, LinkedIn, Discord, Bitbucket and Facebook end to end:
 * `GET /auth/authorisationurl`, the browser's visit to the provider (a local fake speaking that provider's
 * protocol), `POST /auth/signinup` with the code, as the GitHub and GitLab tests do.
 */

const WEB = 'http://web.lumina.test:5173';
const API = 'http://api.lumina.test:3000';
const TP_HEADERS = { rid: 'thirdparty', 'fdi-version': '4.1', 'content-type': 'application/json' };
const webCallback = (id: string) => `${WEB}/auth/callback/${id}`;
// The web SDK's Apple button has Apple post back to the API (response_mode=form_post).
const callbackOf = (id: string) => (id === 'apple' ? `${API}/auth/callback/apple` : webCallback(id));

const AD_TENANT = 'contoso.onmicrosoft.com';
const apple = {
  clientId: 'com.lumina.web',
  teamId: 'TEAM123456',
  keyId: 'KEY1234567',
  ...generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }),
};

/** Apple checks the client secret: an ES256 JWT by the team's key, for the Services ID, to Apple. */
async function appleChecksSecret(secret: string, issuer: string): Promise<boolean> {
  try {
    const { protectedHeader } = await jwtVerify(secret, await importSPKI(apple.publicKey, 'ES256'), {
      algorithms: ['ES256'],
      issuer: apple.teamId,
      subject: apple.clientId,
      audience: issuer,
      maxTokenAge: '6m',
    });
    return protectedHeader.kid === apple.keyId;
  } catch {
    return false;
  }
}

interface Fake {
  authorise(url: string): Promise<Record<string, string>>;
}

describe(`Entra ID, Okta, Apple, LinkedIn, Discord, Bitbucket and Facebook against local fakes, on ${testDb}`, () => {
  const ad = useFakeServer('the fake Entra ID', () =>
    startFakeOidcProvider({
      clientId: 'ad-client',
      clientSecret: 'ad-secret',
      issuerPath: `/${AD_TENANT}/v2.0`,
      clientAuth: 'client_secret_post',
      // Entra's id_token carries `email` (an attribute anyone in the directory may set) and no email_verified.
      user: { sub: 'ad-sub-1', email: 'ad@example.test', name: 'Ad Person' },
    }),
  );
  const okta = useFakeServer('the fake Okta', () =>
    startFakeOidcProvider({
      clientId: 'okta-client',
      clientSecret: 'okta-secret',
      issuerPath: '/oauth2/default',
      clientAuth: 'client_secret_basic',
    }),
  );
  const appleId = useFakeServer('the fake Sign in with Apple', () =>
    startFakeOidcProvider({
      clientId: apple.clientId,
      clientSecret: '(a JWT, checked with the public key)',
      clientAuth: 'client_secret_post',
      verifyClientSecret: appleChecksSecret,
      userinfo: false,
      responseModes: ['query', 'form_post'],
    }),
  );
  const linkedin = useFakeServer('the fake LinkedIn', () =>
    startFakeOidcProvider({
      clientId: 'li-client',
      clientSecret: 'li-secret',
      issuerPath: '/oauth',
      clientAuth: 'client_secret_post',
    }),
  );
  const discord = useFakeServer('the fake Discord', () =>
    startFakeDiscord({ clientId: 'dc-client', clientSecret: 'dc-secret' }),
  );
  const bitbucket = useFakeServer('the fake Bitbucket', () =>
    startFakeBitbucket({ clientId: 'bb-client', clientSecret: 'bb-secret' }),
  );
  const facebook = useFakeServer('the fake Facebook', () =>
    startFakeFacebook({ clientId: 'fb-client', clientSecret: 'fb-secret', version: FACEBOOK_GRAPH_VERSION }),
  );
  const env = useTestEnv(() => ({
    workers: false,
    env: {
      WEB_URL: WEB,
      PUBLIC_URL: API,
      ACTIVE_DIRECTORY_CLIENT_ID: 'ad-client',
      ACTIVE_DIRECTORY_CLIENT_SECRET: 'ad-secret',
      ACTIVE_DIRECTORY_TENANT_ID: AD_TENANT,
      ACTIVE_DIRECTORY_AUTHORITY_URL: ad.origin,
      OKTA_CLIENT_ID: 'okta-client',
      OKTA_CLIENT_SECRET: 'okta-secret',
      OKTA_ISSUER: okta.issuer,
      APPLE_CLIENT_ID: apple.clientId,
      APPLE_TEAM_ID: apple.teamId,
      APPLE_KEY_ID: apple.keyId,
      // As a .env file holds it: one line with literal \n.
      APPLE_PRIVATE_KEY: apple.privateKey.replace(/\n/g, '\\n'),
      APPLE_ISSUER: appleId.issuer,
      LINKEDIN_CLIENT_ID: 'li-client',
      LINKEDIN_CLIENT_SECRET: 'li-secret',
      LINKEDIN_ISSUER: linkedin.issuer,
      ...discord.env,
      ...bitbucket.env,
      ...facebook.env,
    },
  }));

  async function authorisationUrl(id: string) {
    const res = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=${id}&redirectURIOnProviderDashboard=${encodeURIComponent(callbackOf(id))}`,
      headers: TP_HEADERS,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { status: string; urlWithQueryParams: string; pkceCodeVerifier?: string };
  }

  /** The browser's part: visit the provider with the SDK's state and come back to the callback page. */
  async function authorise(id: string, fake: Fake) {
    const body = await authorisationUrl(id);
    const url = new URL(body.urlWithQueryParams);
    url.searchParams.set('state', 'sdk-state');
    return { body, url, query: await fake.authorise(url.toString()) };
  }

  /** Apple: its page posts the fields to our API, which sends the browser on to the web callback page. */
  async function authoriseApple() {
    const body = await authorisationUrl('apple');
    const url = new URL(body.urlWithQueryParams);
    const sdkState = Buffer.from(
      JSON.stringify({ state: 'sdk-state', frontendRedirectURI: webCallback('apple') }),
    ).toString('base64');
    url.searchParams.set('state', sdkState);
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(200);
    const form = readFormPost(await page.text());
    expect(form.action).toBe(`${API}/auth/callback/apple`);
    const posted = await env.app.inject({
      method: 'POST',
      url: new URL(form.action).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form.fields).toString(),
    });
    expect(posted.statusCode).toBe(303);
    const landed = new URL(posted.headers.location as string);
    expect(`${landed.origin}${landed.pathname}`).toBe(webCallback('apple'));
    return { body, url, query: Object.fromEntries(landed.searchParams) };
  }

  function signInUp(id: string, query: Record<string, string>, pkceCodeVerifier?: string) {
    return env.app.inject({
      method: 'POST',
      url: '/auth/signinup',
      headers: { ...TP_HEADERS, 'st-auth-mode': 'header' },
      payload: {
        thirdPartyId: id,
        redirectURIInfo: {
          redirectURIOnProviderDashboard: callbackOf(id),
          redirectURIQueryParams: query,
          pkceCodeVerifier,
        },
      },
    });
  }

  /** A whole sign-in: authorise, then the code to POST /auth/signinup. */
  async function signInWith(id: string, fake?: Fake) {
    const { body, query } = id === 'apple' ? await authoriseApple() : await authorise(id, fake!);
    return signInUp(id, query, body.pkceCodeVerifier);
  }

  const REFUSED = {
    status: 'SIGN_IN_UP_NOT_ALLOWED',
    reason:
      'Cannot sign in / up due to security reasons. Please try a different login method or contact support. (ERR_CODE_006)',
  };

  it('lists every configured provider in GET /auth/loginmethods, in order, with its display name', async () => {
    const methods = (await env.app.inject({ method: 'GET', url: '/auth/loginmethods' })).json();
    expect(methods.thirdParty).toEqual({
      enabled: true,
      providers: [
        { id: 'apple', name: 'Apple' },
        { id: 'linkedin', name: 'LinkedIn' },
        { id: 'okta', name: 'Okta' },
        { id: 'active-directory', name: 'Active Directory' },
        { id: 'discord', name: 'Discord' },
        { id: 'bitbucket', name: 'Bitbucket' },
        { id: 'facebook', name: 'Facebook' },
      ],
    });
  });

  describe('Active Directory (Microsoft Entra ID)', () => {
    it("authorises at the tenant's v2.0 endpoint with PKCE and signs a new user in, then the same user again", async () => {
      ad.state.nextUser = { sub: 'ad-sub-1', email: 'AD.Person@Example.test', name: 'Ad Person' };
      const { body, url, query } = await authorise('active-directory', ad);
      expect(`${url.origin}${url.pathname}`).toBe(`${ad.origin}/${AD_TENANT}/v2.0/authorize`);
      expect(url.searchParams.get('scope')).toBe('openid email profile');
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      const first = await signInUp('active-directory', query, body.pkceCodeVerifier);
      expect(first.json()).toMatchObject({
        status: 'OK',
        createdNewRecipeUser: true,
        user: {
          emails: ['ad.person@example.test'],
          thirdParty: [{ id: 'active-directory', userId: 'ad-sub-1' }],
          // Entra does not vouch for the address: no email_verified claim, so it stays unverified.
          loginMethods: [{ recipeId: 'thirdparty', verified: false }],
        },
      });
      expect(ad.state.tokenAuth.at(-1)).toBe('post');
      const again = await signInWith('active-directory', ad);
      expect(again.json()).toMatchObject({
        status: 'OK',
        createdNewRecipeUser: false,
        user: { id: first.json().user.id },
      });
    });

    it('never links an Entra address to an existing user (the email is not verified)', async () => {
      await signIn(env, 'ad-owner@example.test');
      ad.state.nextUser = { sub: 'ad-sub-2', email: 'ad-owner@example.test' };
      expect((await signInWith('active-directory', ad)).json()).toEqual(REFUSED);
    });

    it('access_denied and a bad code end in the FDI statuses, never a 5xx', async () => {
      ad.state.nextError = 'access_denied';
      const denied = await authorise('active-directory', ad);
      expect(denied.query).toEqual({ error: 'access_denied', state: 'sdk-state' });
      const noCode = await signInUp('active-directory', denied.query, denied.body.pkceCodeVerifier);
      expect(noCode.statusCode).toBe(200);
      expect(noCode.json()).toEqual({
        status: 'FIELD_ERROR',
        error: 'Active Directory did not send an authorisation code. Please try again.',
      });
      const { body } = await authorise('active-directory', ad);
      const bad = await signInUp(
        'active-directory',
        { code: 'not-a-code', state: 'sdk-state' },
        body.pkceCodeVerifier,
      );
      expect(bad.statusCode).toBe(200);
      expect(bad.json()).toEqual({
        status: 'GENERAL_ERROR',
        message: 'Signing in with Active Directory failed. Please try again.',
      });
    });
  });

  describe('Okta', () => {
    it('authenticates to the token endpoint with HTTP Basic and signs in, then again, and links a verified address', async () => {
      okta.state.nextUser = { sub: '00u1okta', email: 'okta@example.test', email_verified: true };
      const { body, url, query } = await authorise('okta', okta);
      expect(`${url.origin}${url.pathname}`).toBe(`${okta.issuer}/authorize`);
      const first = await signInUp('okta', query, body.pkceCodeVerifier);
      expect(first.json()).toMatchObject({
        status: 'OK',
        createdNewRecipeUser: true,
        user: { emails: ['okta@example.test'], loginMethods: [{ verified: true }] },
      });
      expect(okta.state.tokenAuth.at(-1)).toBe('basic');
      expect(okta.state.tokenRequests.at(-1)).not.toHaveProperty('client_secret');
      expect((await signInWith('okta', okta)).json()).toMatchObject({
        createdNewRecipeUser: false,
        user: { id: first.json().user.id },
      });

      const existing = await signIn(env, 'okta-linked@example.test');
      okta.state.nextUser = { sub: '00u2okta', email: 'okta-linked@example.test', email_verified: true };
      expect((await signInWith('okta', okta)).json()).toMatchObject({
        status: 'OK',
        user: { id: existing.userId, isPrimaryUser: true },
      });
    });

    it('an unverified Okta address never links; access_denied and a bad code end in FDI statuses', async () => {
      await signIn(env, 'okta-owner@example.test');
      okta.state.nextUser = { sub: '00u3okta', email: 'okta-owner@example.test', email_verified: false };
      expect((await signInWith('okta', okta)).json()).toEqual(REFUSED);
      okta.state.nextError = 'access_denied';
      expect((await signInWith('okta', okta)).json().status).toBe('FIELD_ERROR');
      const bad = await signInUp('okta', { code: 'nope' }, 'v'.repeat(43));
      expect([bad.statusCode, bad.json().status]).toEqual([200, 'GENERAL_ERROR']);
    });
  });

  describe('Apple', () => {
    it('form_post back through POST /auth/callback/apple, an ES256 client secret, email_verified "true"', async () => {
      appleId.state.nextUser = {
        sub: '001234.apple.5678',
        email: 'apple@privaterelay.appleid.com',
        email_verified: 'true',
        is_private_email: 'true',
      } as FakeOidcUser;
      const { body, url, query } = await authoriseApple();
      expect(url.searchParams.get('response_mode')).toBe('form_post');
      expect(url.searchParams.get('scope')).toBe('openid email');
      expect(url.searchParams.has('code_challenge')).toBe(false);
      expect(body.pkceCodeVerifier).toBeUndefined();
      const first = await signInUp('apple', query);
      expect(first.json()).toMatchObject({
        status: 'OK',
        createdNewRecipeUser: true,
        user: {
          emails: ['apple@privaterelay.appleid.com'],
          thirdParty: [{ id: 'apple', userId: '001234.apple.5678' }],
          loginMethods: [{ verified: true }],
        },
      });
      // The secret in the token request's body is the JWT the fake verified with the public key.
      const token = appleId.state.tokenRequests.at(-1)!;
      expect(token.client_id).toBe(apple.clientId);
      expect(await appleChecksSecret(token.client_secret!, appleId.issuer)).toBe(true);
      expect((await signInWith('apple')).json()).toMatchObject({
        createdNewRecipeUser: false,
        user: { id: first.json().user.id },
      });
    });

    it('links a verified address; email_verified "false" never links; access_denied and a bad code', async () => {
      const existing = await signIn(env, 'apple-linked@example.test');
      appleId.state.nextUser = { sub: 'apple-2', email: 'apple-linked@example.test', email_verified: 'true' };
      expect((await signInWith('apple')).json()).toMatchObject({
        status: 'OK',
        user: { id: existing.userId },
      });

      await signIn(env, 'apple-owner@example.test');
      appleId.state.nextUser = { sub: 'apple-3', email: 'apple-owner@example.test', email_verified: 'false' };
      expect((await signInWith('apple')).json()).toEqual(REFUSED);

      appleId.state.nextError = 'user_cancelled_authorize';
      const cancelled = await authoriseApple();
      expect(cancelled.query.error).toBe('user_cancelled_authorize');
      expect((await signInUp('apple', cancelled.query)).json().status).toBe('FIELD_ERROR');
      const bad = await signInUp('apple', { code: 'nope', state: 'x' });
      expect([bad.statusCode, bad.json().status]).toEqual([200, 'GENERAL_ERROR']);
    });
  });

  describe('LinkedIn', () => {
    it('signs in without PKCE (the web flow has none), secret in the body, then again', async () => {
      linkedin.state.nextUser = { sub: 'li-abc', email: 'linked.in@example.test', email_verified: true };
      const { body, url, query } = await authorise('linkedin', linkedin);
      expect(`${url.origin}${url.pathname}`).toBe(`${linkedin.issuer}/authorize`);
      expect(url.searchParams.has('code_challenge')).toBe(false);
      expect(body.pkceCodeVerifier).toBeUndefined();
      const first = await signInUp('linkedin', query);
      expect(first.json()).toMatchObject({
        status: 'OK',
        createdNewRecipeUser: true,
        user: { emails: ['linked.in@example.test'], thirdParty: [{ id: 'linkedin', userId: 'li-abc' }] },
      });
      const token = linkedin.state.tokenRequests.at(-1)!;
      expect(token).toMatchObject({ client_id: 'li-client', client_secret: 'li-secret' });
      expect(token).not.toHaveProperty('code_verifier');
      expect((await signInWith('linkedin', linkedin)).json()).toMatchObject({
        createdNewRecipeUser: false,
        user: { id: first.json().user.id },
      });
    });

    it('links a verified address, never an unverified one; access_denied and a bad code', async () => {
      const existing = await signIn(env, 'li-linked@example.test');
      linkedin.state.nextUser = { sub: 'li-2', email: 'li-linked@example.test', email_verified: true };
      expect((await signInWith('linkedin', linkedin)).json()).toMatchObject({
        user: { id: existing.userId },
      });
      await signIn(env, 'li-owner@example.test');
      linkedin.state.nextUser = { sub: 'li-3', email: 'li-owner@example.test', email_verified: false };
      expect((await signInWith('linkedin', linkedin)).json()).toEqual(REFUSED);
      linkedin.state.nextError = 'user_cancelled_login';
      expect((await signInWith('linkedin', linkedin)).json().status).toBe('FIELD_ERROR');
      const bad = await signInUp('linkedin', { code: 'nope' });
      expect([bad.statusCode, bad.json().status]).toEqual([200, 'GENERAL_ERROR']);
    });
  });

  describe('Discord', () => {
    it('PKCE, HTTP Basic at /api/oauth2/token, /users/@me with `verified`; new user then the same again', async () => {
      discord.state.nextUser = { id: '111', username: 'dc', email: 'Disc@Example.test', verified: true };
      const { body, url, query } = await authorise('discord', discord);
      expect(`${url.origin}${url.pathname}`).toBe(`${discord.url}/oauth2/authorize`);
      expect(url.searchParams.get('scope')).toBe('identify email');
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      const first = await signInUp('discord', query, body.pkceCodeVerifier);
      expect(first.json()).toMatchObject({
        status: 'OK',
        createdNewRecipeUser: true,
        user: {
          emails: ['disc@example.test'],
          thirdParty: [{ id: 'discord', userId: '111' }],
          loginMethods: [{ verified: true }],
        },
      });
      expect(discord.state.tokenRequests.at(-1)!.auth).toBe('basic');
      expect(discord.state.apiRequests.at(-1)!.path).toBe('/api/users/@me');
      expect((await getUser(env.app, String(first.headers['st-access-token']))).json()).toMatchObject({
        email: 'disc@example.test',
      });
      expect((await signInWith('discord', discord)).json()).toMatchObject({
        createdNewRecipeUser: false,
        user: { id: first.json().user.id },
      });
    });

    it('links a verified address, never an unverified one; access_denied and a bad code', async () => {
      const existing = await signIn(env, 'dc-linked@example.test');
      discord.state.nextUser = { id: '112', username: 'l', email: 'dc-linked@example.test', verified: true };
      expect((await signInWith('discord', discord)).json()).toMatchObject({ user: { id: existing.userId } });
      await signIn(env, 'dc-owner@example.test');
      discord.state.nextUser = { id: '113', username: 'o', email: 'dc-owner@example.test', verified: false };
      expect((await signInWith('discord', discord)).json()).toEqual(REFUSED);
      discord.state.nextError = 'access_denied';
      expect((await signInWith('discord', discord)).json().status).toBe('FIELD_ERROR');
      const bad = await signInUp('discord', { code: 'nope' }, 'v'.repeat(43));
      expect([bad.statusCode, bad.json().status]).toEqual([200, 'GENERAL_ERROR']);
    });
  });

  describe('Bitbucket', () => {
    it('HTTP Basic only, /2.0/user and /2.0/user/emails (primary confirmed); new user then the same again', async () => {
      bitbucket.state.nextUser = {
        uuid: '{aaaa0000-0000-4000-8000-000000000001}',
        account_id: 'acc-1',
        display_name: 'Bit',
        emails: [
          { email: 'old@example.test', is_primary: false, is_confirmed: true },
          { email: 'bit.person@example.test', is_primary: true, is_confirmed: true },
        ],
      };
      const { body, url, query } = await authorise('bitbucket', bitbucket);
      expect(`${url.origin}${url.pathname}`).toBe(`${bitbucket.url}/site/oauth2/authorize`);
      expect(body.pkceCodeVerifier).toBeUndefined();
      const first = await signInUp('bitbucket', query);
      expect(first.json()).toMatchObject({
        status: 'OK',
        createdNewRecipeUser: true,
        user: {
          emails: ['bit.person@example.test'],
          thirdParty: [{ id: 'bitbucket', userId: '{aaaa0000-0000-4000-8000-000000000001}' }],
          loginMethods: [{ verified: true }],
        },
      });
      expect(bitbucket.state.tokenRequests.at(-1)!.auth).toBe('basic');
      expect(bitbucket.state.apiRequests.slice(-2).map((r) => r.path)).toEqual([
        '/2.0/user',
        '/2.0/user/emails',
      ]);
      expect((await signInWith('bitbucket', bitbucket)).json()).toMatchObject({
        createdNewRecipeUser: false,
        user: { id: first.json().user.id },
      });
    });

    it('links a confirmed address, never an unconfirmed one; access_denied and a bad code', async () => {
      const existing = await signIn(env, 'bb-linked@example.test');
      bitbucket.state.nextUser = {
        uuid: '{b2}',
        account_id: 'acc-2',
        display_name: 'L',
        emails: [{ email: 'bb-linked@example.test', is_primary: true, is_confirmed: true }],
      };
      expect((await signInWith('bitbucket', bitbucket)).json()).toMatchObject({
        user: { id: existing.userId },
      });
      await signIn(env, 'bb-owner@example.test');
      bitbucket.state.nextUser = {
        uuid: '{b3}',
        account_id: 'acc-3',
        display_name: 'O',
        emails: [{ email: 'bb-owner@example.test', is_primary: true, is_confirmed: false }],
      };
      expect((await signInWith('bitbucket', bitbucket)).json()).toEqual(REFUSED);
      bitbucket.state.nextError = 'access_denied';
      expect((await signInWith('bitbucket', bitbucket)).json().status).toBe('FIELD_ERROR');
      const bad = await signInUp('bitbucket', { code: 'nope' });
      expect([bad.statusCode, bad.json().status]).toEqual([200, 'GENERAL_ERROR']);
    });
  });

  describe('Facebook', () => {
    it('the secret in the token request body (never Basic), Graph /me?fields=id,email; new user then again', async () => {
      facebook.state.nextUser = { id: '10150001', name: 'Fb', email: 'fb.person@example.test' };
      const { body, url, query } = await authorise('facebook', facebook);
      expect(`${url.origin}${url.pathname}`).toBe(`${facebook.url}/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`);
      expect(body.pkceCodeVerifier).toBeUndefined();
      const first = await signInUp('facebook', query);
      expect(first.json()).toMatchObject({
        status: 'OK',
        createdNewRecipeUser: true,
        user: {
          emails: ['fb.person@example.test'],
          thirdParty: [{ id: 'facebook', userId: '10150001' }],
          // Facebook never says the address was confirmed.
          loginMethods: [{ verified: false }],
        },
      });
      expect(facebook.state.tokenRequests.at(-1)).toMatchObject({
        auth: 'post',
        fields: { client_id: 'fb-client', client_secret: 'fb-secret' },
      });
      expect(facebook.state.apiRequests.at(-1)).toEqual({
        path: `/${FACEBOOK_GRAPH_VERSION}/me`,
        query: '?fields=id,email',
      });
      expect((await signInWith('facebook', facebook)).json()).toMatchObject({
        createdNewRecipeUser: false,
        user: { id: first.json().user.id },
      });
    });

    it('never links (unverified); no email shared → NO_EMAIL_GIVEN_BY_PROVIDER; access_denied and a bad code', async () => {
      await signIn(env, 'fb-owner@example.test');
      facebook.state.nextUser = { id: '10150002', name: 'O', email: 'fb-owner@example.test' };
      expect((await signInWith('facebook', facebook)).json()).toEqual(REFUSED);
      facebook.state.nextUser = { id: '10150003', name: 'Phone only' };
      expect((await signInWith('facebook', facebook)).json()).toEqual({
        status: 'NO_EMAIL_GIVEN_BY_PROVIDER',
      });
      facebook.state.nextError = 'access_denied';
      expect((await signInWith('facebook', facebook)).json().status).toBe('FIELD_ERROR');
      const bad = await signInUp('facebook', { code: 'nope' });
      expect([bad.statusCode, bad.json()]).toEqual([
        200,
        { status: 'GENERAL_ERROR', message: 'Signing in with Facebook failed. Please try again.' },
      ]);
    });
  });
});
