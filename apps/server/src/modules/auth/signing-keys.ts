import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Database } from '../../db/client.ts';
import type { AuthSigningKeyRow } from '../../db/schema/index.ts';
import { findKeysVerifyingAfter, insertSigningKey } from './signing-keys.repository.ts';
import type { Clock } from '../../clock.ts';

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
    private readonly options: { rotationHours: number; accessTokenLifetimeSeconds: number },
  ) {}

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
    this.cache = await Promise.all(rows.map(load));
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
      privateJwk: { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALGORITHM },
      createdAt: new Date(now),
      signUntil: new Date(signUntil),
      // Tokens signed at the last moment live one lifetime more; a minute's slack for clock drift.
      verifyUntil: new Date(signUntil + this.options.accessTokenLifetimeSeconds * 1000 + 60_000),
    });
  }
}

async function load(row: AuthSigningKeyRow): Promise<LoadedKey> {
  const publicJwk = row.publicJwk as JWK;
  return {
    kid: row.kid,
    signUntil: row.signUntil.getTime(),
    verifyUntil: row.verifyUntil.getTime(),
    publicJwk,
    publicKey: (await importJWK(publicJwk, row.algorithm)) as CryptoKey,
    privateKey: (await importJWK(row.privateJwk as JWK, row.algorithm)) as CryptoKey,
  };
}
