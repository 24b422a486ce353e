import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { SoftwareAuthenticator } from '../../../test/fakes/webauthn-authenticator.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { users } from '../../db/schema/index.ts';
import {
  authOf,
  consumeMailedCode,
  createCode,
  SDK_HEADERS,
  signIn,
  uniqueEmail,
  useFakeOidcProvider,
} from './auth.test-helpers.ts';

const WEB = 'http://web.lumina.test:5173';
const CALLBACK = `${WEB}/auth/callback/google`;
const MIXED = 'This email address mixes letters from different alphabets. Please type it again.';
const UNUSABLE =
  'This email address has a character that cannot be used in an address. Please type it again.';

/** The look-alikes of an ASCII address that canonicalise to it. */
const sameAddress = {
  'a zero-width space inside': (email: string) => `${email.slice(0, 2)}\u200b${email.slice(2)}`,
  'a right-to-left override and isolates': (email: string) =>
    `\u202e${email.slice(0, 3)}\u2066\u2069${email.slice(3)}`,
  'fullwidth letters': (email: string) =>
    [...email]
      .map((c) => (c === '@' || c === '.' ? c : String.fromCodePoint(c.codePointAt(0)! + 0xfee0)))
      .join(''),
};

/** The look-alikes of an ASCII address that are refused, with the message the card shows. */
const refusedAddress = {
  'a Cyrillic а in the local part': [(email: string) => email.replace('a', '\u0430'), MIXED],
  'a Cyrillic е in the domain': [(email: string) => email.replace('example', 'exampl\u0435'), MIXED],
  'a combining dot left over on a Latin letter': [(email: string) => email.replace('i', 'i\u0307'), UNUSABLE],
} as const;

describe(`addresses that look alike are one address, or refused, on ${testDb}`, () => {
  const provider = useFakeOidcProvider({ clientId: 'lumina-client', clientSecret: 'lumina-secret' });
  const env = useTestEnv(() => ({ workers: false, env: { WEB_URL: WEB, ...provider.envFor('GOOGLE') } }));

  const userCount = async () => (await env.container.database.db.select({ n: count() }).from(users))[0]!.n;

  /** Asks for a code for `typed`, reads it from the mailbox of `mailbox`, and enters it. */
  async function signInAs(typed: string, mailbox: string) {
    const started = await createCode(env.app, { email: typed, shouldTryLinkingWithSessionUser: false });
    expect(started.body.status).toBe('OK');
    const done = await consumeMailedCode(env, mailbox, started, { link: false });
    expect(done.body.status).toBe('OK');
    return (done.body.user as { id: string }).id;
  }

  const exists = (email: string) =>
    env.app.inject({
      method: 'GET',
      url: `/auth/passwordless/email/exists?email=${encodeURIComponent(email)}`,
      headers: SDK_HEADERS,
    });

  async function webauthnCall(url: string, payload: object) {
    const res = await env.app.inject({
      method: 'POST',
      url,
      headers: { rid: 'webauthn', 'fdi-version': '3.1,4.0,4.1,4.2', 'st-auth-mode': 'header' },
      payload,
    });
    return res.json() as Record<string, unknown>;
  }

  /** A passkey sign-up as the prebuilt card makes it; the registration options' answer when not OK. */
  async function passkeySignUp(email: string) {
    const options = await webauthnCall('/auth/webauthn/options/register', { email });
    if (options.status !== 'OK') return options;
    const device = new SoftwareAuthenticator(authOf(env).config.auth.webauthn.origins[0]!);
    return webauthnCall('/auth/webauthn/signup', {
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the FDI options, as the SDK passes them
      credential: device.register(options as any),
      shouldTryLinkingWithSessionUser: false,
    });
  }

  /** Signs in with Google, the fake provider answering with `email` (verified). */
  async function googleSignIn(email: string, sub: string) {
    provider.state.nextUser = { sub, email, email_verified: true };
    const authUrl = await env.app.inject({
      method: 'GET',
      url: `/auth/authorisationurl?thirdPartyId=google&redirectURIOnProviderDashboard=${encodeURIComponent(CALLBACK)}`,
      headers: { rid: 'thirdparty' },
    });
    const body = authUrl.json();
    const url = new URL(body.urlWithQueryParams);
    url.searchParams.set('state', Buffer.from(JSON.stringify({ state: 'abc' })).toString('base64'));
    const res = await env.app.inject({
      method: 'POST',
      url: '/auth/signinup',
      headers: { rid: 'thirdparty', 'fdi-version': '3.1,4.0,4.1,4.2', 'st-auth-mode': 'header' },
      payload: {
        thirdPartyId: 'google',
        redirectURIInfo: {
          redirectURIOnProviderDashboard: CALLBACK,
          redirectURIQueryParams: await provider.authorise(url.toString()),
          pkceCodeVerifier: body.pkceCodeVerifier,
        },
        shouldTryLinkingWithSessionUser: false,
      },
    });
    return res.json() as { status: string; reason?: string; user?: { id: string } };
  }

  for (const [kind, lookAlike] of Object.entries(sameAddress)) {
    it(`signs ${kind} into the existing account by email code, and finds it in the exists check`, async () => {
      const email = uniqueEmail('alice');
      const owner = await signIn(env, email);
      const before = await userCount();
      expect(await signInAs(lookAlike(email), email)).toBe(owner.userId);
      expect((await exists(lookAlike(email))).json()).toEqual({ status: 'OK', exists: true });
      expect(await userCount()).toBe(before);
    });
  }

  it('signs a letter typed with a combining accent into the account of the accented letter', async () => {
    const email = uniqueEmail('jos\u00e9');
    const owner = await signIn(env, email);
    const before = await userCount();
    expect(await signInAs(email.replace('\u00e9', 'e\u0301'), email)).toBe(owner.userId);
    expect(await userCount()).toBe(before);
  });

  for (const [kind, [lookAlike, message]] of Object.entries(refusedAddress)) {
    it(`refuses ${kind} with a message the card shows, and creates no account`, async () => {
      const email = uniqueEmail('alice');
      await signIn(env, email);
      const before = await userCount();
      const started = await createCode(env.app, {
        email: lookAlike(email),
        shouldTryLinkingWithSessionUser: false,
      });
      expect(started.res.statusCode).toBe(200);
      expect(started.body).toEqual({ status: 'GENERAL_ERROR', message });
      const probe = await exists(lookAlike(email));
      expect(probe.statusCode).toBe(400);
      expect(probe.json()).toEqual({ message });
      expect(await passkeySignUp(lookAlike(email))).toEqual({ status: 'GENERAL_ERROR', message });
      expect(await userCount()).toBe(before);
    });
  }

  it('refuses a passkey sign-up with a look-alike of an address that has an account', async () => {
    const email = uniqueEmail('alice');
    await signIn(env, email);
    const before = await userCount();
    for (const lookAlike of Object.values(sameAddress)) {
      expect(await passkeySignUp(lookAlike(email))).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
    }
    expect(await userCount()).toBe(before);
  });

  it('finds a passkey account by its look-alikes in the passkey exists check, and refuses mixed ones', async () => {
    const email = uniqueEmail('passkey');
    expect(await passkeySignUp(email)).toMatchObject({ status: 'OK' });
    const passkeyExists = (address: string) =>
      env.app.inject({
        method: 'GET',
        url: `/auth/webauthn/email/exists?email=${encodeURIComponent(address)}`,
        headers: { rid: 'webauthn', 'fdi-version': '4.2' },
      });
    for (const lookAlike of Object.values(sameAddress)) {
      expect((await passkeyExists(lookAlike(email))).json()).toEqual({ status: 'OK', exists: true });
    }
    const mixed = await passkeyExists(email.replace('a', '\u0430'));
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json()).toEqual({ message: MIXED });
  });

  it('never makes a second account from a look-alike address a provider vouches for', async () => {
    const email = uniqueEmail('gina');
    const owner = await signIn(env, email);
    const before = await userCount();
    // The same address in other letter case is the same mailbox: the verified Google account joins the person.
    const same = await googleSignIn(email.toUpperCase(), `g-${email}`);
    expect(same).toMatchObject({ status: 'OK', user: { id: owner.userId } });
    // Invisible or fullwidth characters name another mailbox, which the provider has not vouched for as ours.
    for (const [i, lookAlike] of Object.values(sameAddress).entries()) {
      expect((await googleSignIn(lookAlike(email), `g-${i}-${email}`)).status).toBe('SIGN_IN_UP_NOT_ALLOWED');
    }
    const mixed = await googleSignIn(email.replace('a', '\u0430'), `g-mixed-${email}`);
    expect(mixed).toEqual({
      status: 'SIGN_IN_UP_NOT_ALLOWED',
      reason:
        'The email address Google gave us mixes letters from different alphabets, so it cannot be used here. Please sign in another way.',
    });
    expect(await userCount()).toBe(before);
  });
});
