import { expect } from 'vitest';
import { SoftwareAuthenticator } from '../../../test/fakes/webauthn-authenticator.ts';
import type { TestEnv } from '../../../test/harness.ts';
import { authOf } from './auth.test-helpers.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FDI answers, read field by field
export type Json = any;

/**
 * The WebAuthn recipe as the prebuilt card calls it, in header mode, with a software authenticator:
 * options, sign-up, sign-in and adding a passkey from the account page.
 */
export function passkeyCalls(env: TestEnv) {
  const authenticator = () => new SoftwareAuthenticator(authOf(env).config.auth.webauthn.origins[0]!);

  async function call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    token?: string,
  ) {
    const res = await env.app.inject({
      method,
      url,
      headers: {
        rid: 'webauthn',
        'fdi-version': '3.1,4.0,4.1,4.2',
        'st-auth-mode': 'header',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { res, body: res.json() as Json, token: res.headers['st-access-token'] as string | undefined };
  }

  const registerOptions = async (body: Json, token?: string) => {
    const r = await call('POST', '/auth/webauthn/options/register', body, token);
    expect(r.body.status).toBe('OK');
    return r.body;
  };
  const signInOptions = async () => (await call('POST', '/auth/webauthn/options/signin')).body;

  /** Signs up a new person with a passkey, as the prebuilt card does. */
  async function passkeySignUp(email: string, device = authenticator()) {
    const options = await registerOptions({ email });
    const r = await call('POST', '/auth/webauthn/signup', {
      webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
      credential: device.register(options),
      shouldTryLinkingWithSessionUser: false,
    });
    return { ...r, device };
  }

  /** Signs in with a passkey (first factor, or the MFA step with `token`). */
  async function passkeySignIn(
    device: SoftwareAuthenticator,
    token?: string,
    use: { counter?: number } = {},
  ) {
    const options = await signInOptions();
    return call(
      'POST',
      '/auth/webauthn/signin',
      {
        webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
        credential: device.authenticate(options, use),
        shouldTryLinkingWithSessionUser: token !== undefined,
      },
      token,
    );
  }

  /** Adds a passkey for a signed-in person, as the account page does. */
  async function addPasskey(token: string, userId: string, name?: string, device = authenticator()) {
    const options = await registerOptions({ email: 'ignored@example.test' }, token);
    const r = await call(
      'POST',
      '/auth/webauthn/credential',
      {
        webauthnGeneratedOptionsId: options.webauthnGeneratedOptionsId,
        recipeUserId: userId,
        credential: device.register(options),
        ...(name ? { name } : {}),
      },
      token,
    );
    return { ...r, device };
  }

  const accessOf = (r: { res: { headers: Json } }) => String(r.res.headers['st-access-token']);

  return {
    authenticator,
    call,
    registerOptions,
    signInOptions,
    passkeySignUp,
    passkeySignIn,
    addPasskey,
    accessOf,
  };
}
