import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { generateKeyPair, exportJWK, type JWK } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { durableDatabase, startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { problemsOf } from '../../config.test-helpers.ts';
import { authSigningKeys } from '../../db/schema/index.ts';
import { getUser, refresh, signIn } from './auth.test-helpers.ts';
import {
  isSealedJwk,
  KeyEncryption,
  KeyEncryptionError,
  keyFingerprint,
  parseEncryptionKey,
  type SealedJwk,
} from './key-encryption.ts';
import { TEST_C2PA_SIGNING } from '../../../test/support/c2pa-signing.ts';

const PRIVATE_PARTS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

const newKey = () => randomBytes(32);

async function privateJwk(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return exportJWK(privateKey);
}

describe('KeyEncryption (AES-256-GCM)', () => {
  it('seals a private JWK so that no private part is readable, and opens it again', async () => {
    const jwk = await privateJwk();
    const encryption = new KeyEncryption(newKey());
    const sealed = encryption.seal(jwk, 's-1');
    expect(isSealedJwk(sealed)).toBe(true);
    expect(Object.keys(sealed).sort()).toEqual(['ct', 'iv', 'kek', 'sealed', 'tag']);
    for (const part of PRIVATE_PARTS)
      expect(JSON.stringify(sealed)).not.toContain(String(jwk[part as keyof JWK]));
    expect(encryption.open(sealed, 's-1')).toEqual(jwk);
    // A fresh nonce each time.
    expect(encryption.seal(jwk, 's-1').ct).not.toBe(sealed.ct);
  });

  it('refuses a sealed key moved to another row, altered, or sealed with a key it does not hold', async () => {
    const jwk = await privateJwk();
    const key = newKey();
    const encryption = new KeyEncryption(key);
    const sealed = encryption.seal(jwk, 's-1');
    expect(() => encryption.open(sealed, 's-2')).toThrow(KeyEncryptionError);
    const flipped = Buffer.from(sealed.ct, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => encryption.open({ ...sealed, ct: flipped.toString('base64url') }, 's-1')).toThrow(
      /does not decrypt/,
    );
    const other = new KeyEncryption(newKey());
    expect(() => other.open(sealed, 's-1')).toThrow(
      new RegExp(`another key \\(fingerprint ${keyFingerprint(key)}`),
    );
  });

  it('opens with a previous key and re-seals with the current one (rotation)', async () => {
    const jwk = await privateJwk();
    const old = newKey();
    const sealedOld = new KeyEncryption(old).seal(jwk, 's-1');
    const rotated = new KeyEncryption(newKey(), [old]);
    expect(rotated.needsSealing(sealedOld)).toBe(true);
    expect(rotated.needsSealing(jwk)).toBe(true);
    const again = rotated.seal(rotated.open(sealedOld, 's-1'), 's-1');
    expect(again.kek).toBe(rotated.currentKeyId);
    expect(rotated.needsSealing(again)).toBe(false);
    expect(rotated.open(again, 's-1')).toEqual(jwk);
  });

  it('reads keys written as base64 (openssl rand -base64 32), base64url or hex, and nothing else', () => {
    const key = newKey();
    for (const text of [
      key.toString('base64'),
      key.toString('base64url'),
      key.toString('hex'),
      ` ${key.toString('hex')} `,
    ]) {
      expect(parseEncryptionKey(text)).toEqual(key);
    }
    for (const bad of [
      'short',
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('hex'),
      'x'.repeat(64),
    ]) {
      const problem = parseEncryptionKey(bad);
      expect(typeof problem).toBe('string');
      expect(problem).toContain('openssl rand -base64 32');
    }
  });
});

describe('AUTH_KEYS_ENCRYPTION_KEY settings', () => {
  const production = {
    NODE_ENV: 'production',
    FILE_URL_SECRET: 'x'.repeat(40),
    STRIPE_SECRET_KEY: 'sk_test_x',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
    ...TEST_C2PA_SIGNING,
  };

  it('is required in production, and production starts with one', () => {
    expect(problemsOf(production)).toEqual([
      expect.stringMatching(
        /^AUTH_KEYS_ENCRYPTION_KEY: is required when NODE_ENV=production .*openssl rand -base64 32/,
      ),
    ]);
    expect(problemsOf({ ...production, AUTH_KEYS_ENCRYPTION_KEY: newKey().toString('base64') })).toEqual([]);
  });

  it('is optional in development; a bad value is named and never echoed; _PREVIOUS needs it and valid keys', () => {
    expect(problemsOf({ NODE_ENV: 'development' })).toEqual([]);
    const problems = problemsOf({ AUTH_KEYS_ENCRYPTION_KEY: 'hunter2-not-a-key' });
    expect(problems).toEqual([expect.stringMatching(/^AUTH_KEYS_ENCRYPTION_KEY: must be 32 random bytes/)]);
    expect(problems.join()).not.toContain('hunter2');
    expect(problemsOf({ AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS: newKey().toString('hex') })).toEqual([
      'AUTH_KEYS_ENCRYPTION_KEY: is required when AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS is set',
    ]);
    const previous = problemsOf({
      AUTH_KEYS_ENCRYPTION_KEY: newKey().toString('hex'),
      AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS: `${newKey().toString('hex')},secret-junk`,
    });
    expect(previous).toEqual([
      expect.stringMatching(/^AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS: must be a comma-separated list/),
    ]);
    expect(previous.join()).not.toContain('secret-junk');
  });
});

/** The log lines one app writes, parsed. */
function captureLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream, text: () => JSON.stringify(lines) };
}

describe(`signing keys encrypted at rest on ${testDb}`, () => {
  const k1 = newKey().toString('base64');
  const k2 = newKey().toString('hex');
  const k3 = newKey().toString('base64');
  let database: Awaited<ReturnType<typeof durableDatabase>> | undefined;
  let env: TestEnv | undefined;

  async function start(settings: Record<string, string>, log = captureLog()) {
    database ??= await durableDatabase();
    await env?.close();
    env = undefined;
    env = await startTestEnv({
      workers: false,
      keep: true,
      ...database.where,
      env: { LOG_LEVEL: 'info', ...settings },
      logTo: log.stream,
    });
    return { env, log };
  }

  const rows = async () => env!.container.database.db.select().from(authSigningKeys);

  afterAll(async () => {
    await env?.close();
    await database?.drop();
  });

  let plainToken = '';
  let plainD = '';
  let sealedToken = '';
  let sealedRefresh = '';

  it('without a key (development) stores the key as a JWK and warns, naming the setting', async () => {
    const { env, log } = await start({});
    plainToken = (await signIn(env, 'plain@example.test')).accessToken;
    const [row] = await rows();
    expect(row!.privateJwk).toHaveProperty('d');
    plainD = String(row!.privateJwk.d);
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: expect.stringContaining('AUTH_KEYS_ENCRYPTION_KEY is not set'),
      }),
    );
  });

  it('with a key, encrypts the stored plaintext key on start: the row holds no private part, old tokens still verify', async () => {
    const { env, log } = await start({ AUTH_KEYS_ENCRYPTION_KEY: k1 });
    const [row] = await rows();
    expect(isSealedJwk(row!.privateJwk)).toBe(true);
    const text = JSON.stringify(row);
    for (const part of PRIVATE_PARTS) expect(row!.privateJwk).not.toHaveProperty(part);
    expect(text).not.toContain(plainD);
    expect((row!.privateJwk as SealedJwk).kek).toBe(keyFingerprint(parseEncryptionKey(k1) as Buffer));
    expect((await getUser(env.app, plainToken)).statusCode).toBe(200);
    const person = await signIn(env, 'sealed@example.test');
    sealedToken = person.accessToken;
    sealedRefresh = person.refreshToken;
    expect((await getUser(env.app, sealedToken)).statusCode).toBe(200);
    // The key material never reaches the log.
    expect(log.text()).not.toContain(k1);
    expect(log.text()).not.toContain(plainD);
  });

  it('seals keys made while the key is set, and their tokens verify across a restart', async () => {
    const { env } = await start({ AUTH_KEYS_ENCRYPTION_KEY: k1 });
    // A week and a half-hour on, the first key no longer signs (JWT_KEY_ROTATION_HOURS=168): a new one is made.
    const clock = env.container.services.auth.clock;
    const realNow = clock.now;
    clock.now = () => realNow() + 168.5 * 3_600_000;
    try {
      const newer = await signIn(env, 'rotated@example.test');
      const all = await rows();
      expect(all.length).toBe(2);
      for (const row of all) {
        expect(isSealedJwk(row.privateJwk)).toBe(true);
        for (const part of PRIVATE_PARTS) expect(JSON.stringify(row.privateJwk)).not.toContain(`"${part}"`);
      }
      expect((await getUser(env.app, newer.accessToken)).statusCode).toBe(200);
    } finally {
      clock.now = realNow;
    }
    const again = await start({ AUTH_KEYS_ENCRYPTION_KEY: k1 });
    expect((await getUser(again.env.app, sealedToken)).statusCode).toBe(200);
    const refreshed = await refresh(again.env.app, sealedRefresh);
    expect(refreshed.statusCode).toBe(200);
    sealedToken = String(refreshed.headers['st-access-token']);
  });

  it('rotates the encryption key: the old one in _PREVIOUS opens, start-up re-encrypts with the new one', async () => {
    const { env } = await start({ AUTH_KEYS_ENCRYPTION_KEY: k2, AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS: k1 });
    const fingerprint = keyFingerprint(parseEncryptionKey(k2) as Buffer);
    for (const row of await rows()) expect((row.privateJwk as SealedJwk).kek).toBe(fingerprint);
    expect((await getUser(env.app, sealedToken)).statusCode).toBe(200);
    // Afterwards the new key alone is enough.
    const alone = await start({ AUTH_KEYS_ENCRYPTION_KEY: k2 });
    expect((await getUser(alone.env.app, sealedToken)).statusCode).toBe(200);
  });

  it('stops start-up with a clear message for a wrong key, and for no key once keys are encrypted, never printing keys', async () => {
    await env?.close();
    env = undefined;
    const wrong = startTestEnv({
      workers: false,
      keep: true,
      ...database!.where,
      env: { AUTH_KEYS_ENCRYPTION_KEY: k3 },
    });
    const error = await wrong.then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error).toBeInstanceOf(KeyEncryptionError);
    expect(error!.message).toMatch(
      /^AUTH_KEYS_ENCRYPTION_KEY cannot decrypt the signing key s-[0-9a-f-]+ in the database: it was encrypted with another key \(fingerprint [0-9a-f]{16}; the current key is [0-9a-f]{16}\)\. Set the key it was encrypted with, or list it in AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS\.$/,
    );
    for (const key of [k1, k2, k3]) expect(error!.message).not.toContain(key);
    const none = await startTestEnv({
      workers: false,
      keep: true,
      ...database!.where,
    }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(none?.message).toMatch(/is encrypted, but AUTH_KEYS_ENCRYPTION_KEY is not set/);
    // The right key still starts (nothing was changed by the refused starts).
    const { env: ok } = await start({ AUTH_KEYS_ENCRYPTION_KEY: k2 });
    expect((await getUser(ok.app, sealedToken)).statusCode).toBe(200);
  });
});
