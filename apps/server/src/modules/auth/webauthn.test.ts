import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import {
  authOf,
  decodeFrontToken,
  latestMail,
  signIn,
  uniqueEmail,
  useFakeClock,
} from './auth.test-helpers.ts';
import { passkeyCalls, type Json } from './passkey.test-helpers.ts';
import { WEBAUTHN_TIMEOUT_MS } from './webauthn.service.ts';

describe(`passkeys (WebAuthn recipe) on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });
  const clock = useFakeClock(env);

  const {
    authenticator,
    call,
    registerOptions,
    signInOptions,
    passkeySignUp,
    passkeySignIn,
    addPasskey,
    accessOf,
  } = passkeyCalls(env);

  it('offers passkeys as a first factor and gives registration options the SDK can use', async () => {
    const methods = await call('GET', '/auth/loginmethods');
    expect(methods.body.firstFactors).toContain('webauthn');
    const { rpId, rpName } = authOf(env).config.auth.webauthn;
    const options = await registerOptions({ email: uniqueEmail('options') });
    expect(options).toMatchObject({
      webauthnGeneratedOptionsId: expect.any(String),
      rp: { id: rpId, name: rpName },
      user: { id: expect.any(String), name: expect.stringContaining('@example.test') },
      challenge: expect.any(String),
      timeout: WEBAUTHN_TIMEOUT_MS,
      attestation: 'none',
      excludeCredentials: [],
      authenticatorSelection: {
        requireResidentKey: true,
        residentKey: 'required',
        userVerification: 'preferred',
      },
    });
    expect(options.pubKeyCredParams).toContainEqual({ alg: -7, type: 'public-key' });
    expect(new Date(options.expiresAt).getTime() - new Date(options.createdAt).getTime()).toBe(
      WEBAUTHN_TIMEOUT_MS,
    );
    expect((await call('POST', '/auth/webauthn/options/register', { email: 'not-an-email' })).body).toEqual({
      status: 'INVALID_EMAIL_ERROR',
      err: 'Email is invalid',
    });
    expect((await call('POST', '/auth/webauthn/options/register', {})).res.statusCode).toBe(400);
    const signin = await signInOptions();
    expect(signin).toMatchObject({
      status: 'OK',
      rpId,
      timeout: WEBAUTHN_TIMEOUT_MS,
      userVerification: 'preferred',
    });
  });

  it('signs up with a passkey, then signs in with it from the card (first factor webauthn)', async () => {
    const email = uniqueEmail('signup');
    const up = await passkeySignUp(email);
    expect(up.body).toMatchObject({
      status: 'OK',
      user: { emails: [email], loginMethods: [{ recipeId: 'webauthn', email, verified: false }] },
    });
    const userId = up.body.user.id as string;
    expect(decodeFrontToken(String(up.res.headers['front-token'])).up['st-mfa']).toMatchObject({ v: true });
    expect(
      (await call('GET', `/auth/webauthn/email/exists?email=${encodeURIComponent(email)}`)).body,
    ).toEqual({ status: 'OK', exists: true });
    expect(
      (await call('GET', `/auth/webauthn/email/exists?email=${encodeURIComponent(uniqueEmail('nobody'))}`))
        .body,
    ).toEqual({ status: 'OK', exists: false });

    const back = await passkeySignIn(up.device);
    expect(back.body).toMatchObject({ status: 'OK', user: { id: userId } });
    const front = decodeFrontToken(String(back.res.headers['front-token']));
    expect(front.uid).toBe(userId);
    expect(front.up['st-mfa']).toMatchObject({ c: { webauthn: expect.any(Number) }, v: true });
    expect(front.up['lumina-mfa']).toEqual({ f: 'webauthn', s: [] });
    const me = await env.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${accessOf(back)}` },
    });
    expect(me.json()).toMatchObject({ id: userId, email });

    expect(back.body.user.webauthn).toEqual({ credentialIds: up.device.ids });
    const list = await call('GET', '/auth/webauthn/credential/list', undefined, accessOf(back));
    expect(list.body).toMatchObject({
      status: 'OK',
      credentials: [
        { webauthnCredentialId: up.device.ids[0], name: 'Passkey 1', lastUsedAt: expect.any(Number) },
      ],
    });
  });

  it('refuses a passkey answer to another challenge, a replayed challenge and expired options', async () => {
    const device = authenticator();
    const options = await registerOptions({ email: uniqueEmail('wrong-challenge') });
    const wrong = await call('POST', '/auth/webauthn/signup', {
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: device.register(options, {
        challenge: Buffer.from('another challenge').toString('base64url'),
      }),
    });
    expect(wrong.body).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });
    // The options were spent by that attempt: single use.
    const again = await call('POST', '/auth/webauthn/signup', {
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: device.register(options),
    });
    expect(again.body).toEqual({ status: 'OPTIONS_NOT_FOUND_ERROR' });
    const otherOrigin = await registerOptions({ email: uniqueEmail('origin') });
    expect(
      (
        await call('POST', '/auth/webauthn/signup', {
          webauthnGeneratedOptionsId: otherOrigin.webauthnGeneratedOptionsId,
          credential: device.register(otherOrigin, { origin: 'https://evil.example' }),
        })
      ).body,
    ).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });

    const up = await passkeySignUp(uniqueEmail('replay'));
    const signin = await signInOptions();
    const first = await call('POST', '/auth/webauthn/signin', {
      webauthnGeneratedOptionsId: signin.webauthnGeneratedOptionsId,
      credential: up.device.authenticate(signin),
    });
    expect(first.body.status).toBe('OK');
    const replay = await call('POST', '/auth/webauthn/signin', {
      webauthnGeneratedOptionsId: signin.webauthnGeneratedOptionsId,
      credential: up.device.authenticate(signin),
    });
    expect(replay.body).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });
    expect(replay.res.headers['st-access-token']).toBeUndefined();

    const other = await signInOptions();
    const wrongChallenge = await call('POST', '/auth/webauthn/signin', {
      webauthnGeneratedOptionsId: other.webauthnGeneratedOptionsId,
      credential: up.device.authenticate(other, { challenge: signin.challenge }),
    });
    expect(wrongChallenge.body).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });

    const late = await signInOptions();
    clock.advance(WEBAUTHN_TIMEOUT_MS + 1000);
    const expired = await call('POST', '/auth/webauthn/signin', {
      webauthnGeneratedOptionsId: late.webauthnGeneratedOptionsId,
      credential: up.device.authenticate(late),
    });
    expect(expired.body).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });
    expect((await passkeySignIn(up.device)).body.status).toBe('OK');
  });

  it('refuses a signature counter that went backwards (a cloned authenticator)', async () => {
    const up = await passkeySignUp(uniqueEmail('counter'));
    expect((await passkeySignIn(up.device, undefined, { counter: 5 })).body.status).toBe('OK');
    expect((await passkeySignIn(up.device, undefined, { counter: 3 })).body).toEqual({
      status: 'INVALID_CREDENTIALS_ERROR',
    });
    expect((await passkeySignIn(up.device, undefined, { counter: 5 })).body).toEqual({
      status: 'INVALID_CREDENTIALS_ERROR',
    });
    expect((await passkeySignIn(up.device, undefined, { counter: 6 })).body.status).toBe('OK');
  });

  it('never lets a passkey sign-up take over an address that belongs to someone', async () => {
    const email = uniqueEmail('taken');
    const owner = await signIn(env, email);
    const taken = await passkeySignUp(email);
    expect(taken.body).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
    expect(taken.res.headers['st-access-token']).toBeUndefined();
    const again = await passkeySignUp(email.toUpperCase());
    expect(again.body).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
    const user = await authOf(env).users.get(owner.userId);
    expect(user!.loginMethods.map((m) => m.recipeId)).toEqual(['passwordless']);

    const first = await passkeySignUp(uniqueEmail('twice'));
    const twice = await passkeySignUp(first.body.user.emails[0]);
    expect(twice.body).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
  });

  it('adds a named passkey from the account page, signs in with it as the same person, and removes it', async () => {
    const email = uniqueEmail('account');
    const s = await signIn(env, email);
    const added = await addPasskey(s.accessToken, s.userId, 'Work laptop');
    expect(added.body).toMatchObject({ status: 'OK', webauthnCredentialId: added.device.ids[0] });
    const account = await env.app.inject({
      method: 'GET',
      url: '/api/user/second-factors',
      headers: { authorization: `Bearer ${s.accessToken}` },
    });
    expect(account.json()).toMatchObject({
      enabled: [],
      alreadySetup: expect.arrayContaining(['otp-email', 'webauthn']),
      available: expect.arrayContaining(['webauthn']),
      passkeys: [
        { id: added.device.ids[0], name: 'Work laptop', createdAt: expect.any(String), lastUsedAt: null },
      ],
    });
    // The passkey is the same person's: signing in with it opens their account, with their address.
    const back = await passkeySignIn(added.device);
    expect(back.body).toMatchObject({ status: 'OK', user: { id: s.userId } });
    const user = await authOf(env).users.get(s.userId);
    expect(user!.loginMethods).toContainEqual(
      expect.objectContaining({ recipeId: 'webauthn', email, verified: true }),
    );

    const removed = await call(
      'POST',
      '/auth/webauthn/credential/remove',
      { webauthnCredentialId: added.device.ids[0] },
      s.accessToken,
    );
    expect(removed.body).toEqual({ status: 'OK' });
    expect((await call('GET', '/auth/webauthn/credential/list', undefined, s.accessToken)).body).toEqual({
      status: 'OK',
      credentials: [],
    });
    expect((await passkeySignIn(added.device)).body).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });
    expect(
      (
        await call(
          'POST',
          '/auth/webauthn/credential/remove',
          { webauthnCredentialId: added.device.ids[0] },
          s.accessToken,
        )
      ).body,
    ).toEqual({ status: 'CREDENTIAL_NOT_FOUND_ERROR' });
  });

  it("never lets one person list, remove or use another's passkey", async () => {
    const alice = await signIn(env, uniqueEmail('alice'));
    const bob = await signIn(env, uniqueEmail('bob'));
    const alicePasskey = await addPasskey(alice.accessToken, alice.userId, 'Alice phone');
    const bobPasskey = await addPasskey(bob.accessToken, bob.userId, 'Bob phone');

    const bobList = await call('GET', '/auth/webauthn/credential/list', undefined, bob.accessToken);
    expect(bobList.body.credentials.map((c: Json) => c.webauthnCredentialId)).toEqual(bobPasskey.device.ids);
    const steal = await call(
      'POST',
      '/auth/webauthn/credential/remove',
      { webauthnCredentialId: alicePasskey.device.ids[0] },
      bob.accessToken,
    );
    expect(steal.body).toEqual({ status: 'CREDENTIAL_NOT_FOUND_ERROR' });
    expect(
      (await call('GET', '/auth/webauthn/credential/list', undefined, alice.accessToken)).body.credentials,
    ).toHaveLength(1);

    // Bob may not hang a passkey on Alice's login method.
    const options = await registerOptions({ email: 'x@example.test' }, bob.accessToken);
    const onAlice = await call(
      'POST',
      '/auth/webauthn/credential',
      {
        webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
        recipeUserId: alice.userId,
        credential: authenticator().register(options),
      },
      bob.accessToken,
    );
    expect(onAlice.body.status).toBe('REGISTER_CREDENTIAL_NOT_ALLOWED');

    // Alice's passkey does not complete Bob's second factor.
    await env.app.inject({
      method: 'PUT',
      url: '/api/user/second-factors/webauthn',
      headers: { authorization: `Bearer ${bob.accessToken}` },
    });
    const bobAgain = await signIn(env, (bob.body.user as Json).emails[0]);
    expect(bobAgain.frontToken.up['st-mfa']).toMatchObject({ v: false });
    const wrongKey = await passkeySignIn(alicePasskey.device, bobAgain.accessToken);
    expect(wrongKey.body).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });
    const rightKey = await passkeySignIn(bobPasskey.device, bobAgain.accessToken);
    expect(rightKey.body).toMatchObject({ status: 'OK', user: { id: bob.userId } });
  });

  it('recovers a passkey account by email: a link, a new passkey, the old link spent', async () => {
    const email = uniqueEmail('recover');
    const up = await passkeySignUp(email);
    expect((await call('POST', '/auth/user/webauthn/reset/token', { email })).body).toEqual({ status: 'OK' });
    // Unknown addresses get the same answer and no mail.
    const nobody = uniqueEmail('nobody');
    expect((await call('POST', '/auth/user/webauthn/reset/token', { email: nobody })).body).toEqual({
      status: 'OK',
    });
    expect(authOf(env).mailbox!.list({ to: nobody })).toHaveLength(0);

    const link = new URL(latestMail(env, email).link!);
    expect(link.pathname).toBe('/auth/webauthn/recover');
    const token = link.searchParams.get('token')!;
    expect(
      (await call('POST', '/auth/webauthn/options/register', { recoverAccountToken: 'nope' })).body,
    ).toEqual({
      status: 'RECOVER_ACCOUNT_TOKEN_INVALID_ERROR',
    });
    const options = await registerOptions({ recoverAccountToken: token });
    expect(options.user.name).toBe(email);
    // Options made for an email sign-up do not carry a recovery.
    const plain = await registerOptions({ email });
    const fresh = authenticator();
    const mismatched = await call('POST', '/auth/user/webauthn/reset', {
      token,
      webauthnGeneratedOptionsId: plain.webauthnGeneratedOptionsId,
      credential: authenticator().register(plain),
    });
    expect(mismatched.body).toEqual({ status: 'INVALID_OPTIONS_ERROR' });

    const recovered = await call('POST', '/auth/user/webauthn/reset', {
      token,
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: fresh.register(options),
    });
    expect(recovered.body).toMatchObject({ status: 'OK', email, user: { id: up.body.user.id } });
    expect(recovered.body.user.loginMethods[0]).toMatchObject({ recipeId: 'webauthn', verified: true });
    const reused = await call('POST', '/auth/webauthn/options/register', { recoverAccountToken: token });
    expect(reused.body).toEqual({ status: 'RECOVER_ACCOUNT_TOKEN_INVALID_ERROR' });
    expect((await passkeySignIn(fresh)).body).toMatchObject({ status: 'OK', user: { id: up.body.user.id } });
  });

  it('never recovers by email an account with a second factor on: the inbox alone gets past no factor', async () => {
    const email = uniqueEmail('mfa-recover');
    const s = await signIn(env, email);
    await addPasskey(s.accessToken, s.userId, 'Key');
    // A recovery link asked for before the factor was turned on.
    await call('POST', '/auth/user/webauthn/reset/token', { email });
    const early = new URL(latestMail(env, email).link!).searchParams.get('token')!;
    const earlyOptions = await registerOptions({ recoverAccountToken: early });
    const on = await env.app.inject({
      method: 'PUT',
      url: '/api/user/second-factors/webauthn',
      headers: { authorization: `Bearer ${s.accessToken}` },
    });
    expect(on.json()).toMatchObject({ enabled: ['webauthn'] });

    // Asked now, the mail explains instead of carrying a link.
    const before = authOf(env).mailbox!.list({ to: email }).length;
    expect((await call('POST', '/auth/user/webauthn/reset/token', { email })).body).toEqual({ status: 'OK' });
    const mails = authOf(env).mailbox!.list({ to: email });
    expect(mails).toHaveLength(before + 1);
    expect(latestMail(env, email).link).toBeUndefined();
    expect(latestMail(env, email).text).toContain('two-step sign-in');
    // The early link no longer registers a passkey.
    const options = await call('POST', '/auth/webauthn/options/register', { recoverAccountToken: early });
    expect(options.body).toMatchObject({
      status: 'GENERAL_ERROR',
      message: expect.stringContaining('account page'),
    });
    const attacker = authenticator();
    const reset = await call('POST', '/auth/user/webauthn/reset', {
      token: early,
      webauthnGeneratedOptionsId: earlyOptions.webauthnGeneratedOptionsId,
      credential: attacker.register(earlyOptions),
    });
    expect(reset.body).toMatchObject({ status: 'GENERAL_ERROR' });
    // The attacker's authenticator does not complete the second factor after an email-code sign-in.
    const next = await signIn(env, email);
    const second = await passkeySignIn(attacker, next.accessToken);
    expect(second.body.status).toBe('INVALID_CREDENTIALS_ERROR');
    expect((await authOf(env).webauthn.list(s.userId)).length).toBe(1);
  });

  it('asks for a passkey as the second factor after an email-code sign-in, and never counts the passkey sign-in as second', async () => {
    const email = uniqueEmail('second');
    const s = await signIn(env, email);
    const added = await addPasskey(s.accessToken, s.userId, 'Key');
    const on = await env.app.inject({
      method: 'PUT',
      url: '/api/user/second-factors/webauthn',
      headers: { authorization: `Bearer ${s.accessToken}` },
    });
    expect(on.json()).toMatchObject({ enabled: ['webauthn'] });

    const next = await signIn(env, email);
    expect(next.frontToken.up['st-mfa']).toMatchObject({ v: false });
    const info = await call('PUT', '/auth/mfa/info', {}, next.accessToken);
    expect(info.body.factors).toMatchObject({
      next: ['webauthn'],
      alreadySetup: expect.arrayContaining(['webauthn']),
    });
    expect(info.body.emails.webauthn).toEqual([email]);
    const blocked = await env.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${next.accessToken}` },
    });
    expect(blocked.statusCode).toBe(403);
    const done = await passkeySignIn(added.device, next.accessToken);
    expect(done.body).toMatchObject({ status: 'OK' });
    const after = decodeFrontToken(String(done.res.headers['front-token']));
    expect(after.up['st-mfa']).toMatchObject({
      c: { 'otp-email': expect.any(Number), webauthn: expect.any(Number) },
      v: true,
    });
    const open = await env.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { authorization: `Bearer ${accessOf(done)}` },
    });
    expect(open.statusCode).toBe(200);

    // Signed in with the passkey itself: that sign-in is not also the second factor.
    const byPasskey = await passkeySignIn(added.device);
    expect(byPasskey.body.status).toBe('OK');
    const firstOnly = decodeFrontToken(String(byPasskey.res.headers['front-token']));
    expect(firstOnly.up['st-mfa']).toMatchObject({ v: false });
    // Another touch of the same passkey proves nothing more, so a factor of another kind is asked for:
    // the email code this person already has.
    const passkeyInfo = await call('PUT', '/auth/mfa/info', {}, accessOf(byPasskey));
    expect(passkeyInfo.body.factors.next).toEqual(['otp-email']);
    // With the email code turned on as well, the email code will do after a passkey sign-in.
    await env.app.inject({
      method: 'PUT',
      url: '/api/user/second-factors/otp-email',
      headers: { authorization: `Bearer ${accessOf(done)}` },
    });
    const again = await passkeySignIn(added.device);
    expect((await call('PUT', '/auth/mfa/info', {}, accessOf(again))).body.factors.next).toEqual([
      'otp-email',
    ]);

    // Removing the last passkey turns the factor off.
    await call(
      'POST',
      '/auth/webauthn/credential/remove',
      { webauthnCredentialId: added.device.ids[0] },
      accessOf(done),
    );
    expect(await authOf(env).mfa.required(s.userId)).toEqual(['otp-email']);
  });

  it('sets a passkey up in the MFA step (the SDK sign-up with the session) and turns the factor on', async () => {
    const email = uniqueEmail('mfa-setup');
    const s = await signIn(env, email);
    const options = await registerOptions({ email }, s.accessToken);
    const device = authenticator();
    const setup = await call(
      'POST',
      '/auth/webauthn/signup',
      {
        webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
        credential: device.register(options),
        shouldTryLinkingWithSessionUser: true,
      },
      s.accessToken,
    );
    expect(setup.body).toMatchObject({ status: 'OK', user: { id: s.userId } });
    expect(decodeFrontToken(String(setup.res.headers['front-token'])).up['st-mfa']).toMatchObject({
      c: { webauthn: expect.any(Number) },
      v: true,
    });
    expect(await authOf(env).mfa.required(s.userId)).toEqual(['webauthn']);
    // Without a session, linking is a 401 (the SDK refreshes), never a new account.
    const anonymous = await call('POST', '/auth/webauthn/signup', {
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: device.register(options),
      shouldTryLinkingWithSessionUser: true,
    });
    expect(anonymous.res.statusCode).toBe(401);
  });

  it('answers two sign-ups with one address at once with one account and EMAIL_ALREADY_EXISTS_ERROR, never 5xx', async () => {
    const email = uniqueEmail('race');
    const options = [await registerOptions({ email }), await registerOptions({ email })];
    const answers = await Promise.all(
      options.map((o) =>
        call('POST', '/auth/webauthn/signup', {
          webauthnGeneratedOptionsId: o.webauthnGeneratedOptionsId,
          credential: authenticator().register(o),
          shouldTryLinkingWithSessionUser: false,
        }),
      ),
    );
    expect(answers.map((a) => a.res.statusCode)).toEqual([200, 200]);
    expect(answers.map((a) => a.body.status).sort()).toEqual(['EMAIL_ALREADY_EXISTS_ERROR', 'OK']);
  });

  it('refuses to found a new account with registration options made while signed in (they carry that person)', async () => {
    const holder = await signIn(env, uniqueEmail('holder'));
    const options = await registerOptions({ email: uniqueEmail('newcomer') }, holder.accessToken);
    const r = await call('POST', '/auth/webauthn/signup', {
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: authenticator().register(options),
      shouldTryLinkingWithSessionUser: false,
    });
    expect(r.res.statusCode).toBe(200);
    expect(r.body.status).toBe('INVALID_OPTIONS_ERROR');
  });

  it('binds registration options to the flow that asked: never used by another session, person or flow', async () => {
    const alice = await signIn(env, uniqueEmail('bind-alice'));
    const aliceElsewhere = await signIn(env, (alice.body.user as Json).emails[0]);
    const bob = await signIn(env, uniqueEmail('bind-bob'));
    const addAsBob = (options: Json) =>
      call(
        'POST',
        '/auth/webauthn/credential',
        {
          webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
          recipeUserId: bob.userId,
          credential: authenticator().register(options),
        },
        bob.accessToken,
      );

    // Alice's account-page options, spent by Bob's session or by Alice's other session.
    expect(
      (await addAsBob(await registerOptions({ email: 'x@example.test' }, alice.accessToken))).body,
    ).toEqual({
      status: 'INVALID_OPTIONS_ERROR',
    });
    const aliceOptions = await registerOptions({ email: 'x@example.test' }, alice.accessToken);
    const otherSession = await call(
      'POST',
      '/auth/webauthn/credential',
      {
        webauthnGeneratedOptionsId: aliceOptions.webauthnGeneratedOptionsId,
        recipeUserId: alice.userId,
        credential: authenticator().register(aliceOptions),
      },
      aliceElsewhere.accessToken,
    );
    expect(otherSession.body).toEqual({ status: 'INVALID_OPTIONS_ERROR' });

    // Options a signed-out sign-up asked for, spent by a signed-in person (account page or MFA step).
    expect((await addAsBob(await registerOptions({ email: uniqueEmail('bind-signup') }))).body).toEqual({
      status: 'INVALID_OPTIONS_ERROR',
    });
    const signUpOptions = await registerOptions({ email: uniqueEmail('bind-signup') });
    const mfaStep = await call(
      'POST',
      '/auth/webauthn/signup',
      {
        webauthnGeneratedOptionsId: signUpOptions.webauthnGeneratedOptionsId,
        credential: authenticator().register(signUpOptions),
        shouldTryLinkingWithSessionUser: true,
      },
      bob.accessToken,
    );
    expect(mfaStep.body).toEqual({ status: 'INVALID_OPTIONS_ERROR' });
    expect(await authOf(env).webauthn.list(bob.userId)).toEqual([]);
    expect(await authOf(env).webauthn.list(alice.userId)).toEqual([]);

    // The session that asked may use its own options.
    expect(
      (await addAsBob(await registerOptions({ email: 'x@example.test' }, bob.accessToken))).body,
    ).toMatchObject({
      status: 'OK',
    });
  });

  it('answers bad input with 400 or an FDI status, never 5xx', async () => {
    const bodies: Array<[string, unknown]> = [
      ['/auth/webauthn/signup', { webauthnGeneratedOptionsId: 'x', credential: {} }],
      [
        '/auth/webauthn/signup',
        {
          webauthnGeneratedOptionsId: '00000000-0000-4000-8000-000000000000',
          credential: { id: 1, response: 'x' },
        },
      ],
      [
        '/auth/webauthn/signin',
        { webauthnGeneratedOptionsId: 'x', credential: { id: 'abc', response: null } },
      ],
      ['/auth/webauthn/signin', { webauthnGeneratedOptionsId: 'x', credential: 'x' }],
      ['/auth/user/webauthn/reset', { token: 'x', webauthnGeneratedOptionsId: 'x', credential: {} }],
      ['/auth/user/webauthn/reset/token', { email: 42 }],
      ['/auth/webauthn/options/register', { email: ['a'] }],
    ];
    for (const [url, body] of bodies) {
      const r = await call('POST', url, body);
      expect(r.res.statusCode, url).toBeLessThan(500);
      if (r.res.statusCode === 200) expect(r.body.status, url).not.toBe('OK');
    }
    // A garbage assertion against real options.
    const options = await signInOptions();
    const garbage = await call('POST', '/auth/webauthn/signin', {
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: '', signature: '' },
      },
    });
    expect(garbage.body).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });
  });
});
