import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { authOf, getUser, SESSION_HEADERS, signIn, uniqueEmail, useFakeClock } from './auth.test-helpers.ts';
import { revokeSession } from './session.repository.ts';
import { SESSION_CACHE_TTL_MS } from './session.service.ts';

/**
 * Session checks are remembered for at most a second (session.service.ts), so revocation must still
 * bite: at once for revocations made by this process, within a second for those made by another.
 * Every case first uses the token, so the session is in the cache when it is revoked.
 */
describe(`revoked sessions are refused within a second on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });
  const clock = useFakeClock(env);

  it('refuses every session at once after "sign out everywhere" from the account API', async () => {
    const address = uniqueEmail('everywhere');
    const a = await signIn(env, address);
    const b = await signIn(env, address);
    expect((await getUser(env.app, a.accessToken)).statusCode).toBe(200);
    expect((await getUser(env.app, b.accessToken)).statusCode).toBe(200);

    const res = await env.app.inject({
      method: 'DELETE',
      url: '/api/user/sessions',
      headers: { authorization: `Bearer ${a.accessToken}` },
    });
    expect(res.json()).toEqual({ revoked: 2 });

    for (const token of [a.accessToken, b.accessToken]) {
      const after = await getUser(env.app, token);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toMatchObject({ code: 'UNAUTHORISED' });
    }
  });

  it('refuses the token at once after sign-out, and leaves the person’s other sessions working', async () => {
    const address = uniqueEmail('signout');
    const leaving = await signIn(env, address);
    const staying = await signIn(env, address);
    expect((await getUser(env.app, leaving.accessToken)).statusCode).toBe(200);

    const out = await env.app.inject({
      method: 'POST',
      url: '/auth/signout',
      headers: {
        ...SESSION_HEADERS,
        'st-auth-mode': 'header',
        authorization: `Bearer ${leaving.accessToken}`,
      },
    });
    expect(out.json()).toEqual({ status: 'OK' });

    expect((await getUser(env.app, leaving.accessToken)).statusCode).toBe(401);
    expect((await getUser(env.app, staying.accessToken)).statusCode).toBe(200);
  });

  it('refuses a session revoked by another API process once a second has passed', async () => {
    const person = await signIn(env, uniqueEmail('elsewhere'));
    expect((await getUser(env.app, person.accessToken)).statusCode).toBe(200);

    // What another process does: the row changes in the shared database, this process is not told.
    await revokeSession(
      env.container.database.db,
      person.frontToken.up.sessionHandle,
      'signout',
      new Date(authOf(env).clock.now()),
    );
    clock.advance(SESSION_CACHE_TTL_MS);

    const after = await getUser(env.app, person.accessToken);
    expect(after.statusCode).toBe(401);
    expect(SESSION_CACHE_TTL_MS).toBeLessThanOrEqual(1000);
  });
});
