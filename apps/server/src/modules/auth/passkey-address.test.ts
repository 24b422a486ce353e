import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { authOf, getUser, latestMail, signIn, uniqueEmail } from './auth.test-helpers.ts';
import { passkeyCalls, type Json } from './passkey.test-helpers.ts';

/**
 * An address a passkey sign-up typed is unproven: it never blocks or shadows the person who proves it
 * (an email code or link), and proving it never hands them an account someone else's passkey opens.
 */
describe(`unproven passkey addresses on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });
  const { call, registerOptions, passkeySignUp, passkeySignIn, addPasskey, accessOf, authenticator } =
    passkeyCalls(env);

  const emailExists = async (email: string) =>
    (await call('GET', `/auth/webauthn/email/exists?email=${encodeURIComponent(email)}`)).body.exists;

  it("an email-code sign-in takes the address from an unproven passkey sign-up: one account holds it, and the squatter's passkey opens only the squatter's", async () => {
    const email = uniqueEmail('squatted');
    const squatter = await passkeySignUp(email);
    expect(squatter.body.status).toBe('OK');
    const squatterId = squatter.body.user.id as string;

    // The owner signs in with a code from the inbox: a new account, the only one with the address.
    const owner = await signIn(env, email);
    expect(owner.userId).not.toBe(squatterId);
    expect((await getUser(env.app, owner.accessToken)).json()).toMatchObject({ email });
    expect((await getUser(env.app, accessOf(squatter))).json()).toMatchObject({
      id: squatterId,
      email: null,
    });
    expect(await emailExists(email)).toBe(false);

    const back = await passkeySignIn(squatter.device);
    expect(back.body).toMatchObject({ status: 'OK', user: { id: squatterId, emails: [] } });

    // The owner's passkey carries the proven address; recovery mails go to their account, not the squatter's.
    const added = await addPasskey(owner.accessToken, owner.userId, 'Phone');
    expect(added.body.status).toBe('OK');
    expect((await authOf(env).users.get(owner.userId))!.loginMethods).toContainEqual(
      expect.objectContaining({ recipeId: 'webauthn', email, verified: true }),
    );
    expect(await emailExists(email)).toBe(true);
    expect((await call('POST', '/auth/user/webauthn/reset/token', { email })).body).toEqual({ status: 'OK' });
    const token = new URL(latestMail(env, email).link!).searchParams.get('token')!;
    expect(await authOf(env).webauthn.recoverTokenUser('public', token)).toBe(owner.userId);

    // The squatter cannot take the address back with another passkey sign-up.
    expect((await passkeySignUp(email)).body).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
  });

  it('recovering a passkey account whose address was never proven drops the passkeys made before and ends its sessions', async () => {
    const email = uniqueEmail('recover-squatted');
    const squatter = await passkeySignUp(email);
    const squatterId = squatter.body.user.id as string;
    expect((await getUser(env.app, accessOf(squatter))).statusCode).toBe(200);

    // The inbox's owner is told the address is taken, and recovers the account by email.
    expect((await passkeySignUp(email)).body).toEqual({ status: 'EMAIL_ALREADY_EXISTS_ERROR' });
    await call('POST', '/auth/user/webauthn/reset/token', { email });
    const token = new URL(latestMail(env, email).link!).searchParams.get('token')!;
    const options = await registerOptions({ recoverAccountToken: token });
    const ownerDevice = authenticator();
    const recovered = await call('POST', '/auth/user/webauthn/reset', {
      token,
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: ownerDevice.register(options),
    });
    expect(recovered.body).toMatchObject({ status: 'OK', email, user: { id: squatterId } });

    // Only the passkey registered with the proof opens the account now; the earlier one and its session do not.
    expect((await passkeySignIn(squatter.device)).body).toEqual({ status: 'INVALID_CREDENTIALS_ERROR' });
    expect((await getUser(env.app, accessOf(squatter))).statusCode).toBe(401);
    const owner = await passkeySignIn(ownerDevice);
    expect(owner.body).toMatchObject({ status: 'OK', user: { id: squatterId } });
    expect((owner.body.user as Json).loginMethods).toEqual([
      expect.objectContaining({ recipeId: 'webauthn', email, verified: true }),
    ]);
    expect(
      (await call('GET', '/auth/webauthn/credential/list', undefined, accessOf(owner))).body.credentials,
    ).toEqual([expect.objectContaining({ webauthnCredentialId: ownerDevice.ids[0] })]);
  });

  it('recovering a proven passkey account keeps its other passkeys and sessions', async () => {
    const email = uniqueEmail('recover-proven');
    const s = await signIn(env, email);
    const first = await addPasskey(s.accessToken, s.userId, 'Laptop');
    await call('POST', '/auth/user/webauthn/reset/token', { email });
    const token = new URL(latestMail(env, email).link!).searchParams.get('token')!;
    const options = await registerOptions({ recoverAccountToken: token });
    const recovered = await call('POST', '/auth/user/webauthn/reset', {
      token,
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: authenticator().register(options),
    });
    expect(recovered.body.status).toBe('OK');
    expect((await passkeySignIn(first.device)).body).toMatchObject({ status: 'OK', user: { id: s.userId } });
    expect((await getUser(env.app, s.accessToken)).statusCode).toBe(200);
  });
});
