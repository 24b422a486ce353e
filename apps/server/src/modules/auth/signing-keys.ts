import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Database } from '../../db/client.ts';
import type { AuthSigningKeyRow } from '../../db/schema/index.ts';
import {
  findAllSigningKeys,
  findKeysVerifyingAfter,
  insertSigningKey,
  replacePrivateJwk,
} from './signing-keys.repository.ts';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../logger.ts';
import { isSealedJwk, KeyEncryptionError, type KeyEncryption } from './key-encryption.ts';

export const SIGNING_ALGORITHM = 'RS256';

interface LoadedKey {
  kid: string;
  signUntil: number;
  verifyUntil: number;
  publicJwk: JWK;
  privateKey?: CryptoKey;
  publicKey: CryptoKey;
}

/**
 * The access-token signing keys. Generated on first use and stored in the database so every API process
 * signs and verifies with the same keys; a new key takes over every `rotationHours`, and a retired key
 * stays published (JWKS) and accepted until the last token it signed has expired.
 */
export class SigningKeys {
  private cache: LoadedKey[] = [];
  private loadedAt = 0;
  private rotating?: Promise<void>;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly options: {
      rotationHours: number;
      accessTokenLifetimeSeconds: number;
      /** Encrypts private keys at rest (AUTH_KEYS_ENCRYPTION_KEY); without it they are stored as JWK. */
      encryption?: KeyEncryption;
    },
  ) {}

  /**
   * Start-up: with an encryption key, every stored private key that is plain or sealed with an earlier
   * key is sealed with the current one; a key that cannot be opened stops start-up (KeyEncryptionError,
   * naming the setting, never the key). Without one, sealed keys stop start-up and a warning names the
   * setting. Keys past `verify_until` are never used again: one that cannot be opened is left as it is.
   */
  async secureStoredKeys(log: Logger): Promise<void> {
    const encryption = this.options.encryption;
    const now = this.clock.now();
    const rows = await findAllSigningKeys(this.db);
    if (!encryption) {
      const sealed = rows.find((r) => isSealedJwk(r.privateJwk) && r.verifyUntil.getTime() > now);
      if (sealed) {
        throw new KeyEncryptionError(
          `The signing key ${sealed.kid} in the database is encrypted, but AUTH_KEYS_ENCRYPTION_KEY is not set. Set the key it was encrypted with.`,
        );
      }
      log.warn(
        'AUTH_KEYS_ENCRYPTION_KEY is not set: the access-token signing keys are stored unencrypted in the database (refused when NODE_ENV=production; make a key with: openssl rand -base64 32).',
      );
      return;
    }
    let sealedNow = 0;
    for (const row of rows) {
      if (!encryption.needsSealing(row.privateJwk)) continue;
      let jwk: JWK;
      try {
        jwk = isSealedJwk(row.privateJwk)
          ? encryption.open(row.privateJwk, row.kid)
          : (row.privateJwk as JWK);
      } catch (err) {
        if (row.verifyUntil.getTime() <= now) continue;
        throw new KeyEncryptionError(
          `AUTH_KEYS_ENCRYPTION_KEY cannot decrypt the signing key ${row.kid} in the database: ${(err as Error).message}. Set the key it was encrypted with, or list it in AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS.`,
        );
      }
      // Only if the row is unchanged: another process starting at the same time may have done it already.
      if (await replacePrivateJwk(this.db, row.kid, row.privateJwk, encryption.seal(jwk, row.kid)))
        sealedNow++;
    }
    if (sealedNow > 0) log.info({ keys: sealedNow }, 'signing keys encrypted with AUTH_KEYS_ENCRYPTION_KEY');
    this.cache = [];
  }

  /** The key that signs now (rotating first when its signing period is over). */
  async current(): Promise<LoadedKey & { privateKey: CryptoKey }> {
    const now = this.clock.now();
    let key = (await this.keys()).find((k) => k.privateKey && k.signUntil > now);
    if (!key) {
      this.rotating ??= this.rotate().finally(() => (this.rotating = undefined));
      await this.rotating;
      key = (await this.keys(true)).find((k) => k.privateKey && k.signUntil > now);
    }
    if (!key?.privateKey) throw new Error('No signing key available');
    return key as LoadedKey & { privateKey: CryptoKey };
  }

  /** The public key for a `kid`, if it is still accepted. */
  async verificationKey(kid: string): Promise<CryptoKey | undefined> {
    const now = this.clock.now();
    let key = (await this.keys()).find((k) => k.kid === kid);
    // Another process may have rotated since we loaded.
    if (!key) key = (await this.keys(true)).find((k) => k.kid === kid);
    return key && key.verifyUntil > now ? key.publicKey : undefined;
  }

  /** The JWKS document: every key whose tokens may still be valid, newest first. */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.current();
    const now = this.clock.now();
    return {
      keys: (await this.keys()).filter((k) => k.verifyUntil > now).map((k) => k.publicJwk),
    };
  }

  private async keys(force = false): Promise<LoadedKey[]> {
    const now = this.clock.now();
    if (!force && this.cache.length > 0 && now - this.loadedAt < 60_000) return this.cache;
    const rows = await findKeysVerifyingAfter(this.db, new Date(now));
    this.cache = await Promise.all(rows.map((row) => load(row, this.options.encryption)));
    this.loadedAt = now;
    return this.cache;
  }

  private async rotate(): Promise<void> {
    const now = this.clock.now();
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    const kid = `s-${randomUUID()}`;
    const signUntil = now + this.options.rotationHours * 3_600_000;
    await insertSigningKey(this.db, {
      kid,
      algorithm: SIGNING_ALGORITHM,
      publicJwk: { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' },
      privateJwk: this.atRest({ ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALGORITHM }, kid),
      createdAt: new Date(now),
      signUntil: new Date(signUntil),
      // Tokens signed at the last moment live one lifetime more; a minute's slack for clock drift.
      verifyUntil: new Date(signUntil + this.options.accessTokenLifetimeSeconds * 1000 + 60_000),
    });
  }

  /** A private JWK as it is stored: sealed when an encryption key is set. */
  private atRest(jwk: JWK, kid: string): Record<string, unknown> {
    const encryption = this.options.encryption;
    return encryption ? encryption.seal(jwk, kid) : { ...jwk };
  }
}

async function load(row: AuthSigningKeyRow, encryption: KeyEncryption | undefined): Promise<LoadedKey> {
  const publicJwk = row.publicJwk as JWK;
  let privateJwk: JWK;
  if (isSealedJwk(row.privateJwk)) {
    if (!encryption) {
      throw new KeyEncryptionError(
        `The signing key ${row.kid} is encrypted, but AUTH_KEYS_ENCRYPTION_KEY is not set.`,
      );
    }
    privateJwk = encryption.open(row.privateJwk, row.kid);
  } else {
    privateJwk = row.privateJwk as JWK;
  }
  return {
    kid: row.kid,
    signUntil: row.signUntil.getTime(),
    verifyUntil: row.verifyUntil.getTime(),
    publicJwk,
    publicKey: (await importJWK(publicJwk, row.algorithm)) as CryptoKey,
    privateKey: (await importJWK(privateJwk, row.algorithm)) as CryptoKey,
  };
}
