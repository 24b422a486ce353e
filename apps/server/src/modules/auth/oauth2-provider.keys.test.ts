import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { durableDatabase, startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { authOauthSecrets } from '../../db/schema/index.ts';
import { isSealedJwk, KeyEncryptionError, keyFingerprint, parseEncryptionKey } from './key-encryption.ts';

/**
 * The OpenID provider's keys (Sign in with Lumina: its id_token signing key and its cookie keys, rows of
 * `auth_oauth_secrets`) are sealed at rest with AUTH_KEYS_ENCRYPTION_KEY, as the session signing keys are.
 */
const PRIVATE_PARTS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];
const CLIENTS = [
  { client_id: 'mobile', name: 'Lumina Mobile', redirect_uris: ['http://127.0.0.1:9/cb'], first_party: true },
];
const newKey = () => randomBytes(32).toString('base64');

describe(`Sign in with Lumina keys encrypted at rest on ${testDb}`, () => {
  const k1 = newKey();
  const k2 = newKey();
  let database: Awaited<ReturnType<typeof durableDatabase>> | undefined;
  let env: TestEnv | undefined;

  async function start(settings: Record<string, string>) {
    database ??= await durableDatabase();
    await env?.close();
    env = undefined;
    env = await startTestEnv({
      workers: false,
      keep: true,
      ...database.where,
      env: { OAUTH_CLIENTS_JSON: JSON.stringify(CLIENTS), ...settings },
    });
    return env;
  }

  const secret = async (name: string) =>
    (
      await env!.container.database.db.select().from(authOauthSecrets).where(eq(authOauthSecrets.name, name))
    )[0]?.value;

  /** The provider's published keys (building the provider creates its secrets on first use). */
  const publishedKeys = async (e: TestEnv) => {
    const res = await e.app.inject({ method: 'GET', url: '/auth/oauth/jwks.json' });
    expect(res.statusCode).toBe(200);
    return (res.json() as { keys: Array<Record<string, unknown>> }).keys;
  };

  afterAll(async () => {
    await env?.close();
    await database?.drop();
  });

  let published: Array<Record<string, unknown>> = [];
  let plainD = '';
  let plainCookieKey = '';

  it('without a key stores the provider keys plain (development)', async () => {
    const e = await start({});
    published = await publishedKeys(e);
    expect(published).toHaveLength(1);
    for (const part of PRIVATE_PARTS) expect(published[0]).not.toHaveProperty(part);
    const jwks = (await secret('oauth-provider-jwks')) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys[0]).toHaveProperty('d');
    plainD = String(jwks.keys[0]!.d);
    plainCookieKey = String(((await secret('oauth-provider-cookie-keys')) as string[])[0]);
  });

  it('with a key, seals the stored keys at start: the rows hold no private parts, the same key is published', async () => {
    const e = await start({ AUTH_KEYS_ENCRYPTION_KEY: k1 });
    const jwks = (await secret('oauth-provider-jwks')) as { keys: unknown[] };
    const cookieKeys = (await secret('oauth-provider-cookie-keys')) as unknown[];
    const fingerprint = keyFingerprint(parseEncryptionKey(k1) as Buffer);
    for (const item of [...jwks.keys, ...cookieKeys]) {
      expect(isSealedJwk(item)).toBe(true);
      expect((item as { kek: string }).kek).toBe(fingerprint);
      for (const part of PRIVATE_PARTS) expect(item).not.toHaveProperty(part);
    }
    const text = JSON.stringify({ jwks, cookieKeys });
    expect(text).not.toContain(plainD);
    expect(text).not.toContain(plainCookieKey);
    expect(await publishedKeys(e)).toEqual(published);
  });

  it('a fresh database with a key stores sealed keys from the start', async () => {
    const e = await start({ AUTH_KEYS_ENCRYPTION_KEY: k1 });
    await e.container.database.db.delete(authOauthSecrets);
    await e.container.services.auth.oauthProvider.secureStoredSecrets();
    const fresh = await publishedKeys(e);
    expect(fresh[0]!.kid).not.toBe(published[0]!.kid);
    const jwks = (await secret('oauth-provider-jwks')) as { keys: unknown[] };
    const cookieKeys = (await secret('oauth-provider-cookie-keys')) as unknown[];
    for (const item of [...jwks.keys, ...cookieKeys]) expect(isSealedJwk(item)).toBe(true);
    published = fresh;
  });

  it('rotates the encryption key through _PREVIOUS, and refuses to start without a key or with a wrong one', async () => {
    const e = await start({ AUTH_KEYS_ENCRYPTION_KEY: k2, AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS: k1 });
    const jwks = (await secret('oauth-provider-jwks')) as { keys: Array<{ kek: string }> };
    expect(jwks.keys[0]!.kek).toBe(keyFingerprint(parseEncryptionKey(k2) as Buffer));
    expect(await publishedKeys(e)).toEqual(published);
    await env?.close();
    env = undefined;
    const refused = async (settings: Record<string, string>) =>
      startTestEnv({
        workers: false,
        keep: true,
        ...database!.where,
        env: { OAUTH_CLIENTS_JSON: JSON.stringify(CLIENTS), ...settings },
      }).then(
        async (started) => {
          await started.close();
          return undefined;
        },
        (err: Error) => err,
      );
    const none = await refused({});
    expect(none).toBeInstanceOf(KeyEncryptionError);
    expect(none!.message).toMatch(/encrypted, but AUTH_KEYS_ENCRYPTION_KEY is not set/);
    const wrong = await refused({ AUTH_KEYS_ENCRYPTION_KEY: k1 });
    expect(wrong).toBeInstanceOf(KeyEncryptionError);
    expect(wrong!.message).toMatch(/AUTH_KEYS_ENCRYPTION_KEY cannot decrypt/);
    for (const key of [k1, k2]) expect(`${none!.message} ${wrong!.message}`).not.toContain(key);
    const ok = await start({ AUTH_KEYS_ENCRYPTION_KEY: k2 });
    expect(await publishedKeys(ok)).toEqual(published);
  });
});
