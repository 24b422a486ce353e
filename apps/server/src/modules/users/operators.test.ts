import { describe, expect, it } from 'vitest';
import { createImage } from '../../../test/factories.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { useSignedIn } from '../../../test/support/api.ts';
import { getUser, latestMail, signIn } from '../auth/auth.test-helpers.ts';
import { passkeyCalls } from '../auth/passkey.test-helpers.ts';

/** Who is an operator: an address in ADMIN_EMAILS that the account has proven, for every operator check. */
describe(`operators on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: { ADMIN_EMAILS: 'ops@lumina.test,Night-Ops@Lumina.test,late-ops@lumina.test' },
  });
  const alice = useSignedIn(env, 'alice');
  const owner = useSignedIn(env, 'owner');
  const { call, passkeySignUp, accessOf } = passkeyCalls(env);

  const api = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string) =>
    env.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });

  /** What each operator check answers: the profile flag, the vendors page, a reset, unpublishing another's example. */
  async function operatorChecks(token: string) {
    const example = await createImage(env, owner.userId, { isExample: true, category: 'Landscapes' });
    const unpublish = await api(token, 'DELETE', `/api/example_images/${example.id}`);
    return {
      isOperator: (await getUser(env.app, token)).json().is_operator as boolean,
      vendors: (await api(token, 'GET', '/api/operator/vendors')).statusCode,
      reset: (await api(token, 'POST', '/api/operator/vendors/local/reset')).statusCode,
      unpublish: unpublish.statusCode,
    };
  }

  const REFUSED = { isOperator: false, vendors: 403, reset: 403, unpublish: 404 };
  const ALLOWED = { isOperator: true, vendors: 200, reset: 200, unpublish: 200 };

  it('an address proven by an email code makes an operator, for every operator check (any case)', async () => {
    expect(await operatorChecks((await signIn(env, 'ops@lumina.test')).accessToken)).toEqual(ALLOWED);
    expect(await operatorChecks((await signIn(env, 'night-ops@lumina.test')).accessToken)).toEqual(ALLOWED);
    expect(await operatorChecks(alice.accessToken)).toEqual(REFUSED);
  });

  it('a passkey sign-up as an operator address (no session before) is no operator until the address is proven', async () => {
    const up = await passkeySignUp('late-ops@lumina.test');
    expect(up.body.status).toBe('OK');
    const token = accessOf(up);
    expect(await operatorChecks(token)).toEqual(REFUSED);

    // The inbox's owner opens the verification link: the address is proven for this account now.
    expect((await call('POST', '/auth/user/email/verify/token', {}, token)).body).toEqual({ status: 'OK' });
    const link = new URL(latestMail(env, 'late-ops@lumina.test').link!);
    const verified = await call('POST', '/auth/user/email/verify', {
      method: 'token',
      token: link.searchParams.get('token'),
    });
    expect(verified.body.status).toBe('OK');
    expect(await operatorChecks(token)).toEqual(ALLOWED);
  });
});
