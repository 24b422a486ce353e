import { count } from 'drizzle-orm';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { startFakeSamlIdp, type FakeSamlTweaks } from '../../../test/fakes/saml-idp.ts';
import { testDb, useTestEnv, type TestEnv } from '../../../test/harness.ts';
import { startedForSuite } from '../../../test/support/suite-scope.ts';
import { loadConfig } from '../../config.ts';
import { users } from '../../db/schema/index.ts';
import { getUser, signIn, uniqueEmail } from './auth.test-helpers.ts';

const WEB = 'http://web.lumina.test:5173';
const CALLBACK = `${WEB}/auth/callback/saml`;
const TP_HEADERS = {
  rid: 'thirdparty',
  'fdi-version': '3.1,4.0,4.1,4.2',
  'content-type': 'application/json',
};
/** The web SDK's state: base64 of `{state}` (thirdparty recipeImplementation.generateStateToSendToOAuthProvider). */
const SDK_STATE = Buffer.from(JSON.stringify({ state: '9c3f0a1b2d4e5f60718' })).toString('base64');

const useFakeSamlIdp = () =>
  startedForSuite(
    'the fake SAML IdP',
    () => startFakeSamlIdp(),
    (idp) => idp.close(),
  );

type Idp = Awaited<ReturnType<typeof startFakeSamlIdp>>;

/** The browser's part of a SAML sign-in, one step at a time, through the real HTTP surface. */
function samlBrowser(env: TestEnv, idp: Idp) {
  /** The SDK asks for the authorisation URL and appends its state; the browser opens it. */
  async function start(tenant?: string) {
    const prefix = tenant ? `/${tenant}` : '';
    const res = await env.app.inject({
      method: 'GET',
      url: `/auth${prefix}/authorisationurl?thirdPartyId=saml&redirectURIOnProviderDashboard=${encodeURIComponent(CALLBACK)}`,
      headers: TP_HEADERS,
    });
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().urlWithQueryParams);
    url.searchParams.set('state', SDK_STATE);
    const login = await env.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(login.statusCode).toBe(302);
    return { authorisationUrl: url, idpUrl: String(login.headers.location) };
  }

  /** The IdP's page posts its form to our assertion consumer service. */
  async function post(form: Record<string, string>) {
    return env.app.inject({
      method: 'POST',
      url: '/auth/saml/acs',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
  }

  /** The web callback page sends what it found in its address to POST /auth/signinup. */
  async function signInUp(query: Record<string, string>, tenant?: string) {
    const res = await env.app.inject({
      method: 'POST',
      url: `/auth${tenant ? `/${tenant}` : ''}/signinup`,
      headers: { ...TP_HEADERS, 'st-auth-mode': 'header' },
      payload: {
        thirdPartyId: 'saml',
        redirectURIInfo: { redirectURIOnProviderDashboard: CALLBACK, redirectURIQueryParams: query },
        shouldTryLinkingWithSessionUser: false,
      },
    });
    expect(res.statusCode).toBe(200);
    return res;
  }

  /** Start to callback page: the ACS answer, and the callback page's query when it went there. */
  async function throughIdp(tweaks: FakeSamlTweaks = {}, tenant?: string) {
    const { idpUrl } = await start(tenant);
    idp.state.tweaks = tweaks;
    try {
      const page = await idp.respond(idpUrl);
      const acs = await post(page.form);
      const location = acs.headers.location ? new URL(String(acs.headers.location)) : undefined;
      return { page, acs, query: location ? Object.fromEntries(location.searchParams) : undefined, location };
    } finally {
      idp.state.tweaks = {};
    }
  }

  return { start, post, signInUp, throughIdp };
}

describe(`SAML sign-in through a local IdP that signs real assertions, on ${testDb}`, () => {
  const idp = useFakeSamlIdp();
  const env = useTestEnv(() => ({
    workers: false,
    env: {
      WEB_URL: WEB,
      PUBLIC_URL: 'http://api.lumina.test:3000',
      ...idp.envFor(),
      SAML_PROVIDER_NAME: 'Company SSO',
      TENANTS_JSON: '{"acme":{"firstFactors":["thirdparty"]},"codes-only":{"firstFactors":["otp-email"]}}',
    },
  }));
  const browser = () => samlBrowser(env, idp);

  it('offers the IdP in the login methods of tenants that allow it and serves our metadata', async () => {
    const pub = (await env.app.inject({ method: 'GET', url: '/auth/loginmethods' })).json();
    expect(pub.thirdParty).toEqual({ enabled: true, providers: [{ id: 'saml', name: 'Company SSO' }] });
    expect(pub.firstFactors).toContain('thirdparty');
    const codes = (await env.app.inject({ method: 'GET', url: '/auth/codes-only/loginmethods' })).json();
    expect(codes.thirdParty).toEqual({ enabled: false, providers: [] });

    const metadata = await env.app.inject({ method: 'GET', url: '/auth/saml/metadata' });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(metadata.body).toContain('entityID="http://api.lumina.test:3000/auth/saml/metadata"');
    expect(metadata.body).toContain('Location="http://api.lumina.test:3000/auth/saml/acs"');
    expect(metadata.body).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
  });

  it('sends the browser to the IdP with a deflated AuthnRequest and the request id as RelayState', async () => {
    const { authorisationUrl, idpUrl } = await browser().start();
    expect(`${authorisationUrl.origin}${authorisationUrl.pathname}`).toBe(
      'http://api.lumina.test:3000/auth/saml/login',
    );
    const url = new URL(idpUrl);
    expect(`${url.origin}${url.pathname}`).toBe(idp.ssoUrl);
    const page = await idp.respond(idpUrl);
    expect(page.request.acsUrl).toBe('http://api.lumina.test:3000/auth/saml/acs');
    expect(page.request.issuer).toBe('http://api.lumina.test:3000/auth/saml/metadata');
    expect(page.request.id).toMatch(/^_[0-9a-f]{40}$/);
    expect(page.request.relayState).toBe(page.request.id);
    expect(page.request.signed).toBe(false);
    expect(page.request.xml).toContain('<samlp:AuthnRequest');
  });

  it('signs a new person in with the one-time code, then the same person again', async () => {
    const email = uniqueEmail('saml-new');
    idp.state.nextUser = {
      nameId: `emp-${email}`,
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      email: email.toUpperCase(),
    };
    const first = await browser().throughIdp();
    expect(first.acs.statusCode).toBe(303);
    expect(`${first.location!.origin}${first.location!.pathname}`).toBe(CALLBACK);
    expect(first.query).toEqual({ code: expect.stringMatching(/^[\w-]{43}$/), state: SDK_STATE });

    const res = await browser().signInUp(first.query!);
    const result = res.json();
    expect(result).toMatchObject({
      status: 'OK',
      createdNewRecipeUser: true,
      user: {
        emails: [email],
        thirdParty: [{ id: 'saml', userId: `emp-${email}` }],
        loginMethods: [{ recipeId: 'thirdparty', verified: false }],
      },
    });
    const token = String(res.headers['st-access-token']);
    expect((await getUser(env.app, token)).json()).toMatchObject({ id: result.user.id, onboarded: false });

    const again = await browser().throughIdp();
    const second = (await browser().signInUp(again.query!)).json();
    expect(second).toMatchObject({ status: 'OK', createdNewRecipeUser: false, user: { id: result.user.id } });
  });

  it('takes the address from an emailAddress NameID when there is no email attribute', async () => {
    const email = uniqueEmail('saml-nameid');
    idp.state.nextUser = { nameId: email };
    const { query } = await browser().throughIdp();
    const result = (await browser().signInUp(query!)).json();
    expect(result).toMatchObject({
      status: 'OK',
      user: { emails: [email], thirdParty: [{ id: 'saml', userId: email }] },
    });
  });

  it('spends a code once, in its own tenant only', async () => {
    idp.state.nextUser = { nameId: uniqueEmail('saml-code') };
    const { query } = await browser().throughIdp();
    // Another tenant cannot spend it (and the attempt does not spend it either: the row is the tenant's).
    const elsewhere = await browser().signInUp(query!, 'acme');
    expect(elsewhere.json()).toEqual({
      status: 'GENERAL_ERROR',
      message: 'Signing in with Company SSO failed. Please try again.',
    });
    expect((await browser().signInUp(query!)).json().status).toBe('OK');
    const reused = await browser().signInUp(query!);
    expect(reused.json().status).toBe('GENERAL_ERROR');
    const made_up = await browser().signInUp({ code: 'x'.repeat(43), state: SDK_STATE });
    expect(made_up.json().status).toBe('GENERAL_ERROR');
    const none = await browser().signInUp({ state: SDK_STATE });
    expect(none.json().status).toBe('FIELD_ERROR');
  });

  it('signs people in through a tenant whose sign-in started there', async () => {
    idp.state.nextUser = { nameId: uniqueEmail('saml-acme') };
    const { query } = await browser().throughIdp({}, 'acme');
    expect((await browser().signInUp(query!)).json().status).toBe('GENERAL_ERROR');
    const res = await browser().signInUp(query!, 'acme');
    expect(res.json()).toMatchObject({ status: 'OK', user: { tenantIds: ['acme'] } });
  });

  it('refuses a replayed response', async () => {
    idp.state.nextUser = { nameId: uniqueEmail('saml-replay') };
    const first = await browser().throughIdp();
    expect(first.query?.code).toBeDefined();
    const replay = await browser().post(first.page.form);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toMatch(/already used or expired/);
  });

  const refusals: Array<[string, FakeSamlTweaks]> = [
    [
      'an expired assertion',
      { notOnOrAfter: new Date(Date.now() - 10 * 60_000), notBefore: new Date(Date.now() - 20 * 60_000) },
    ],
    [
      'an assertion not valid yet',
      { notBefore: new Date(Date.now() + 10 * 60_000), notOnOrAfter: new Date(Date.now() + 20 * 60_000) },
    ],
    ['an assertion for another audience', { audience: 'https://other-sp.example/metadata' }],
    ['an assertion from another issuer', { issuer: 'https://evil-idp.example/metadata' }],
    ['an unsigned response', { signAssertion: false, signResponse: false }],
    ['a signed response around an unsigned assertion', { signAssertion: false }],
    ['a response signed with a key the IdP does not have', { signWithImpostorKey: true }],
    [
      'a signed assertion changed afterwards',
      {
        tamper: (xml) =>
          xml.replace(/<saml:AttributeValue>[^<]*</, '<saml:AttributeValue>boss@example.test<'),
      },
    ],
    [
      'a response answering another request id',
      { inResponseTo: '_0123456789abcdef0123456789abcdef01234567' },
    ],
    ['an IdP that refused the person', { statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }],
  ];
  for (const [name, tweaks] of refusals) {
    it(`refuses ${name}: back to the callback page with an error and no code`, async () => {
      idp.state.nextUser = { nameId: uniqueEmail('saml-refused'), email: uniqueEmail('saml-refused') };
      const { acs, query } = await browser().throughIdp(tweaks);
      expect(acs.statusCode).toBe(303);
      expect(String(acs.headers.location).startsWith(`${CALLBACK}?`)).toBe(true);
      expect(query).toEqual({
        error: 'access_denied',
        error_description: 'The sign-in response was refused.',
        state: SDK_STATE,
      });
    });
  }

  it("refuses a good response posted with another sign-in's RelayState, and still takes it with its own", async () => {
    idp.state.nextUser = { nameId: uniqueEmail('saml-crossed') };
    const a = await browser().start();
    const b = await browser().start();
    const pageA = await idp.respond(a.idpUrl);
    const pageB = await idp.respond(b.idpUrl);
    const crossed = await browser().post({
      SAMLResponse: pageB.form.SAMLResponse,
      RelayState: pageA.form.RelayState,
    });
    expect(crossed.statusCode).toBe(303);
    expect(new URL(String(crossed.headers.location)).searchParams.get('error')).toBe('access_denied');
    const own = await browser().post(pageB.form);
    expect(new URL(String(own.headers.location)).searchParams.get('code')).toBeTruthy();
  });

  const unprintable: Array<[string, (email: string) => { nameId: string; email?: string }]> = [
    ['NameID', (email) => ({ nameId: `${email}\u0000admin` })],
    ['email attribute', (email) => ({ nameId: `id-${email}`, email: `${email}\u0000` })],
  ];
  for (const [where, user] of unprintable) {
    it(`refuses a signed assertion with a NUL in its ${where}, and the same sign-in still completes`, async () => {
      const email = uniqueEmail('saml-nul');
      const { idpUrl } = await browser().start();
      idp.state.nextUser = user(email);
      const bad = await browser().post((await idp.respond(idpUrl)).form);
      expect(bad.statusCode).toBe(303);
      expect(Object.fromEntries(new URL(String(bad.headers.location)).searchParams)).toEqual({
        error: 'access_denied',
        error_description: 'The sign-in response was refused.',
        state: SDK_STATE,
      });
      // The sign-in under way was not spent: the person's good answer to it signs them in.
      idp.state.nextUser = { nameId: email, email };
      const good = await browser().post((await idp.respond(idpUrl)).form);
      const query = Object.fromEntries(new URL(String(good.headers.location)).searchParams);
      expect(query.code).toBeTruthy();
      expect((await browser().signInUp(query)).json()).toMatchObject({
        status: 'OK',
        user: { emails: [email] },
      });
    });
  }

  it('does not link an unverified SAML address to someone who already has it', async () => {
    const email = uniqueEmail('saml-existing');
    await signIn(env, email);
    idp.state.nextUser = { nameId: `other-${email}`, email };
    const { query } = await browser().throughIdp();
    expect((await browser().signInUp(query!)).json().status).toBe('SIGN_IN_UP_NOT_ALLOWED');
  });

  it('answers malformed posts and login requests with a 4xx message, never a 5xx', async () => {
    const posts: Array<[string, string, string]> = [
      ['application/x-www-form-urlencoded', ''],
      ['application/x-www-form-urlencoded', 'SAMLResponse=&RelayState='],
      ['application/x-www-form-urlencoded', 'SAMLResponse=%00&RelayState=%ED%A0%80'],
      ['application/x-www-form-urlencoded', `SAMLResponse=${'A'.repeat(300_000)}&RelayState=x`],
      ['application/x-www-form-urlencoded', 'SAMLResponse=not-base64!!&RelayState=_nope'],
      [
        'application/x-www-form-urlencoded',
        `SAMLResponse=${Buffer.from('<x').toString('base64')}&RelayState=_nope`,
      ],
      ['application/json', '{"SAMLResponse":{"a":1},"RelayState":[1]}'],
      ['application/json', 'nonsense'],
      ['text/plain', 'SAMLResponse=x'],
    ].map(([type, body]) => [type!, body!, `${type} ${body!.slice(0, 40)}`]);
    for (const [type, payload, label] of posts) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/auth/saml/acs',
        headers: { 'content-type': type },
        payload,
      });
      expect([label, res.statusCode]).toEqual([label, expect.toSatisfy((s: number) => s >= 400 && s < 500)]);
      if (res.headers['content-type']?.toString().includes('json'))
        expect(res.json().message).toEqual(expect.any(String));
    }
    // A real request's RelayState with a broken response goes back to the callback page as refused.
    const { idpUrl } = await browser().start();
    const relay = new URL(idpUrl).searchParams.get('RelayState')!;
    const broken = await browser().post({
      SAMLResponse: Buffer.from('<samlp:Response').toString('base64'),
      RelayState: relay,
    });
    expect(broken.statusCode).toBe(303);
    expect(new URL(String(broken.headers.location)).searchParams.get('error')).toBe('access_denied');

    const logins = [
      '/auth/saml/login',
      `/auth/saml/login?redirectURI=${encodeURIComponent(CALLBACK)}`,
      `/auth/saml/login?redirectURI=${encodeURIComponent('https://evil.test/auth/callback/saml')}&state=x`,
      `/auth/saml/login?tenantId=codes-only&redirectURI=${encodeURIComponent(CALLBACK)}&state=x`,
      `/auth/saml/login?tenantId=nowhere&redirectURI=${encodeURIComponent(CALLBACK)}&state=x`,
      `/auth/saml/login?tenantId=%00&redirectURI=%ED%A0%80&state=x`,
      `/auth/saml/login?redirectURI=${encodeURIComponent(CALLBACK)}&state=${'x'.repeat(9000)}`,
    ];
    for (const url of logins) {
      const res = await env.app.inject({ method: 'GET', url });
      expect([url.slice(0, 80), res.statusCode]).toEqual([url.slice(0, 80), 400]);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const foreign = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=saml&redirectURIOnProviderDashboard=${encodeURIComponent('https://evil.test/auth/callback/saml')}`,
    });
    expect(foreign.statusCode).toBe(400);
  });
});

describe(`SAML with a signing key of our own and an IdP trusted for addresses, on ${testDb}`, () => {
  const idp = useFakeSamlIdp();
  const sp = startedForSuite(
    'the SP key',
    () => generate([{ name: 'commonName', value: 'Lumina SP' }], { keySize: 2048, algorithm: 'sha256' }),
    () => undefined,
  );
  const env = useTestEnv(() => ({
    workers: false,
    env: {
      WEB_URL: WEB,
      ...idp.envFor(),
      SAML_SP_ENTITY_ID: 'urn:lumina:test-sp',
      SAML_SP_PRIVATE_KEY: sp.private.replace(/\n/g, '\\n'),
      SAML_SP_CERT: sp.cert,
      SAML_EMAIL_VERIFIED: 'true',
    },
  }));
  const browser = () => samlBrowser(env, idp);

  it('signs its AuthnRequests, publishes its certificate and names its own entity id', async () => {
    const { idpUrl } = await browser().start();
    const url = new URL(idpUrl);
    expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(url.searchParams.get('Signature')).toBeTruthy();
    const page = await idp.respond(idpUrl);
    expect(page.request.issuer).toBe('urn:lumina:test-sp');
    const metadata = (await env.app.inject({ method: 'GET', url: '/auth/saml/metadata' })).body;
    expect(metadata).toContain('entityID="urn:lumina:test-sp"');
    const certBody = sp.cert.replace(/-----[A-Z ]+-----|\s/g, '');
    expect(metadata.replace(/\s/g, '')).toContain(certBody);
  });

  it('links a verified SAML address to the person who already has it', async () => {
    const email = uniqueEmail('saml-link');
    const existing = await signIn(env, email);
    idp.state.nextUser = {
      nameId: `emp-${email}`,
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      email,
    };
    const { query } = await browser().throughIdp();
    const result = (await browser().signInUp(query!)).json();
    expect(result).toMatchObject({ status: 'OK', user: { id: existing.userId, isPrimaryUser: true } });
    expect(result.user.loginMethods).toContainEqual(
      expect.objectContaining({
        recipeId: 'thirdparty',
        verified: true,
        thirdParty: { id: 'saml', userId: `emp-${email}` },
      }),
    );
  });

  it("never signs a look-alike of a person's address into their account or a new one", async () => {
    const email = uniqueEmail('saml-look-alike');
    await signIn(env, email);
    const userCount = async () => (await env.container.database.db.select({ n: count() }).from(users))[0]!.n;
    const before = await userCount();
    // Invisible characters name another mailbox, which the IdP has not vouched for as this person's.
    idp.state.nextUser = { nameId: `zw-${email}`, email: `${email.slice(0, 3)}\u200b${email.slice(3)}` };
    const invisible = await browser().throughIdp();
    expect((await browser().signInUp(invisible.query!)).json().status).toBe('SIGN_IN_UP_NOT_ALLOWED');
    // A Cyrillic "ѕ" (U+0455) among Latin letters.
    idp.state.nextUser = { nameId: `mixed-${email}`, email: email.replace('s', '\u0455') };
    const mixed = await browser().throughIdp();
    expect((await browser().signInUp(mixed.query!)).json()).toEqual({
      status: 'SIGN_IN_UP_NOT_ALLOWED',
      reason: expect.stringContaining('mixes letters from different alphabets, so it cannot be used here'),
    });
    expect(await userCount()).toBe(before);
  });

  it('refuses a transient NameID (it would be a new person every time)', async () => {
    idp.state.nextUser = {
      nameId: '_t1234',
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
      email: uniqueEmail('t'),
    };
    const { query } = await browser().throughIdp();
    expect(query?.error).toBe('access_denied');
  });
});

describe(`SAML sign-in starts are limited per IP, on ${testDb}`, () => {
  const idp = useFakeSamlIdp();
  const env = useTestEnv(() => ({
    workers: false,
    env: { WEB_URL: WEB, ...idp.envFor(), AUTH_RATE_LIMIT_PER_IP: '3' },
  }));

  it('refuses a fourth sign-in start from one address within the window with a 429 and Retry-After', async () => {
    const url = `/auth/saml/login?redirectURI=${encodeURIComponent(CALLBACK)}&state=${SDK_STATE}`;
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await env.app.inject({ method: 'GET', url });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([302, 302, 302, 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.json()).toEqual({
      message: 'Too many sign-in attempts. Please wait a few minutes and try again.',
    });
  });
});

describe('SAML settings', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: '.tmp/config-test' };
  const failure = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  };

  it('offers no SAML without settings, and stops start-up naming what a half-set IdP misses', async () => {
    expect(loadConfig(base).auth.saml).toBeUndefined();
    expect(failure({ SAML_IDP_ENTRY_POINT: 'https://idp.example/sso' })).toContain(
      'SAML_IDP_CERT: is required when SAML_IDP_ENTRY_POINT is set',
    );
    expect(failure({ SAML_IDP_CERT: 'MIIB' })).toContain(
      'SAML_IDP_ENTRY_POINT: is required when SAML_IDP_CERT is set',
    );
    expect(
      failure({ SAML_IDP_ENTRY_POINT: 'https://idp.example/sso', SAML_IDP_CERT: 'not a certificate' }),
    ).toContain('SAML_IDP_CERT: must be the IdP signing certificate');
    const pems = await generate([{ name: 'commonName', value: 'x' }], { keySize: 2048 });
    expect(
      failure({
        SAML_IDP_ENTRY_POINT: 'https://idp.example/sso',
        SAML_IDP_CERT: pems.cert,
        SAML_SP_CERT: pems.cert,
      }),
    ).toContain('SAML_SP_PRIVATE_KEY: is required when SAML_SP_CERT is set');
    const config = loadConfig({
      ...base,
      PUBLIC_URL: 'https://api.lumina.example/',
      SAML_IDP_ENTRY_POINT: 'https://idp.example/sso',
      // A bare base64 body is wrapped as PEM.
      SAML_IDP_CERT: pems.cert.replace(/-----[A-Z ]+-----|\s/g, ''),
    });
    expect(config.auth.saml).toMatchObject({
      id: 'saml',
      name: 'Single sign-on',
      spEntityId: 'https://api.lumina.example/auth/saml/metadata',
      acsUrl: 'https://api.lumina.example/auth/saml/acs',
      emailVerified: false,
    });
    expect(config.auth.saml!.idpCert).toContain('-----BEGIN CERTIFICATE-----\n');
  });
});
