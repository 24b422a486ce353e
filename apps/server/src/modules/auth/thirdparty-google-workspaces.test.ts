import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { signIn, useFakeOidcProvider } from './auth.test-helpers.ts';

/**
 * Google Workspaces (`google-workspaces`): `hd=<domain>` in the authorisation URL preselects accounts, and
 * the `hd` claim of the verified id_token is what decides. The fake OpenID provider issues tokens with and
 * without the right `hd`, as Google does for Workspace and personal accounts.
 */

const WEB = 'http://web.lumina.test:5173';
const TP_HEADERS = { rid: 'thirdparty', 'fdi-version': '4.1', 'content-type': 'application/json' };
const CALLBACK = `${WEB}/auth/callback/google-workspaces`;

function suite(hd: string) {
  const google = useFakeOidcProvider({ clientId: 'gw-client', clientSecret: 'gw-secret' });
  const env = useTestEnv(() => ({
    workers: false,
    env: {
      WEB_URL: WEB,
      GOOGLE_WORKSPACES_CLIENT_ID: 'gw-client',
      GOOGLE_WORKSPACES_CLIENT_SECRET: 'gw-secret',
      GOOGLE_WORKSPACES_ISSUER: google.issuer,
      GOOGLE_WORKSPACES_HD: hd,
    },
  }));

  async function signInAs(user: Record<string, unknown>) {
    google.state.nextUser = user as never;
    const start = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=google-workspaces&redirectURIOnProviderDashboard=${encodeURIComponent(CALLBACK)}`,
      headers: TP_HEADERS,
    });
    expect(start.statusCode).toBe(200);
    const { urlWithQueryParams, pkceCodeVerifier } = start.json();
    const url = new URL(urlWithQueryParams);
    url.searchParams.set('state', 'sdk-state');
    const query = await google.authorise(url.toString());
    const res = await env.app.inject({
      method: 'POST',
      url: '/auth/signinup',
      headers: { ...TP_HEADERS, 'st-auth-mode': 'header' },
      payload: {
        thirdPartyId: 'google-workspaces',
        redirectURIInfo: {
          redirectURIOnProviderDashboard: CALLBACK,
          redirectURIQueryParams: query,
          pkceCodeVerifier,
        },
      },
    });
    expect(res.statusCode).toBe(200);
    return { url, res, json: res.json() };
  }
  return { google, env, signInAs };
}

describe(`Google Workspaces limited to one domain, on ${testDb}`, () => {
  const { env, signInAs } = suite('example.com');

  it('is listed as google-workspaces / "Google Workspaces" (the SDK\'s button)', async () => {
    const methods = (await env.app.inject({ method: 'GET', url: '/auth/loginmethods' })).json();
    expect(methods.thirdParty.providers).toEqual([{ id: 'google-workspaces', name: 'Google Workspaces' }]);
  });

  it('puts hd=<domain> in the authorisation URL and signs in an account whose id_token says hd=example.com', async () => {
    const { url, json } = await signInAs({
      sub: 'gw-1',
      email: 'ann@example.com',
      email_verified: true,
      hd: 'example.com',
    });
    expect(url.searchParams.get('hd')).toBe('example.com');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(json).toMatchObject({
      status: 'OK',
      createdNewRecipeUser: true,
      user: { emails: ['ann@example.com'], thirdParty: [{ id: 'google-workspaces', userId: 'gw-1' }] },
    });
    const again = await signInAs({
      sub: 'gw-1',
      email: 'ann@example.com',
      email_verified: true,
      hd: 'example.com',
    });
    expect(again.json).toMatchObject({
      status: 'OK',
      createdNewRecipeUser: false,
      user: { id: json.user.id },
    });
  });

  it('refuses an id_token of another Workspace domain with a reason the card shows', async () => {
    const { json } = await signInAs({
      sub: 'gw-2',
      email: 'bob@other.test',
      email_verified: true,
      hd: 'other.test',
    });
    expect(json).toEqual({
      status: 'SIGN_IN_UP_NOT_ALLOWED',
      reason:
        'Accounts of other.test cannot sign in here. Please use a Google Workspace account of example.com.',
    });
  });

  it('refuses a personal account (an id_token without hd), even with an address of the domain', async () => {
    const { json } = await signInAs({ sub: 'gw-3', email: 'carl@example.com', email_verified: true });
    expect(json).toEqual({
      status: 'SIGN_IN_UP_NOT_ALLOWED',
      reason: 'This is not a Google Workspace account. Please use a Google Workspace account of example.com.',
    });
    // Nothing was created for the refused accounts.
    const existing = await signIn(env, 'carl@example.com');
    expect(existing.body).toMatchObject({ createdNewRecipeUser: true, user: { thirdParty: [] } });
  });

  it('links a verified Workspace address to the existing user of that address', async () => {
    const existing = await signIn(env, 'dora@example.com');
    const { json } = await signInAs({
      sub: 'gw-4',
      email: 'dora@example.com',
      email_verified: true,
      hd: 'Example.COM',
    });
    expect(json).toMatchObject({ status: 'OK', user: { id: existing.userId, isPrimaryUser: true } });
  });
});

describe(`Google Workspaces with several domains, and with *, on ${testDb}`, () => {
  const { signInAs } = suite('example.com, example.org');

  it('sends hd=* (Google takes one domain) and accepts either domain from the id_token, nothing else', async () => {
    const org = await signInAs({
      sub: 'o-1',
      email: 'o@example.org',
      email_verified: true,
      hd: 'example.org',
    });
    expect(org.url.searchParams.get('hd')).toBe('*');
    expect(org.json.status).toBe('OK');
    const com = await signInAs({
      sub: 'c-1',
      email: 'c@example.com',
      email_verified: true,
      hd: 'example.com',
    });
    expect(com.json.status).toBe('OK');
    const net = await signInAs({
      sub: 'n-1',
      email: 'n@example.net',
      email_verified: true,
      hd: 'example.net',
    });
    expect(net.json).toEqual({
      status: 'SIGN_IN_UP_NOT_ALLOWED',
      reason:
        'Accounts of example.net cannot sign in here. Please use a Google Workspace account of example.com or example.org.',
    });
  });
});

describe('Google Workspaces settings', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '.tmp/config-test' };

  it('needs the secret and the allowed domains, and takes * or a comma list of domains only', () => {
    expect(() => loadConfig({ ...base, GOOGLE_WORKSPACES_CLIENT_ID: 'x' })).toThrow(
      /GOOGLE_WORKSPACES_CLIENT_SECRET.*required[\s\S]*GOOGLE_WORKSPACES_HD.*required/,
    );
    expect(() =>
      loadConfig({
        ...base,
        GOOGLE_WORKSPACES_CLIENT_ID: 'x',
        GOOGLE_WORKSPACES_CLIENT_SECRET: 'y',
        GOOGLE_WORKSPACES_HD: 'example.com;evil',
      }),
    ).toThrow(/GOOGLE_WORKSPACES_HD/);
    const any = loadConfig({
      ...base,
      GOOGLE_WORKSPACES_CLIENT_ID: 'x',
      GOOGLE_WORKSPACES_CLIENT_SECRET: 'y',
      GOOGLE_WORKSPACES_HD: '*',
    }).auth.oidcProviders[0]!;
    expect(any).toMatchObject({
      id: 'google-workspaces',
      issuer: 'https://accounts.google.com',
      hostedDomains: ['*'],
      authParams: { hd: '*' },
    });
  });
});

describe(`Google Workspaces with GOOGLE_WORKSPACES_HD=*, on ${testDb}`, () => {
  const { signInAs } = suite('*');

  it('accepts any Workspace domain but still refuses a personal account', async () => {
    const ok = await signInAs({ sub: 'a-1', email: 'a@any.test', email_verified: true, hd: 'any.test' });
    expect(ok.url.searchParams.get('hd')).toBe('*');
    expect(ok.json.status).toBe('OK');
    const personal = await signInAs({ sub: 'p-1', email: 'p@gmail.test', email_verified: true });
    expect(personal.json).toEqual({
      status: 'SIGN_IN_UP_NOT_ALLOWED',
      reason: 'This is not a Google Workspace account. Please use a Google Workspace account.',
    });
  });
});
