import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { JWK } from 'jose';

/**
 * Private keys encrypted at rest (AES-256-GCM, node:crypto) with a key from the environment
 * (`AUTH_KEYS_ENCRYPTION_KEY`). A sealed key names the encryption key it was sealed with (`kek`, a
 * fingerprint, never the key), so an old key listed in `AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS` can still open
 * it while the current one seals everything anew. Any store of private JWKs can use it; the signing keys
 * (`auth_signing_keys`) do.
 */

/** A private JWK as stored: AES-256-GCM over its JSON, bound to the row it belongs to. */
// A type, not an interface, so it is a Record<string, unknown> for the JSONB column.
export type SealedJwk = {
  /** Marks the value as sealed; a plain JWK has `kty` instead. */
  sealed: 'A256GCM';
  /** Fingerprint of the encryption key that sealed it (first 16 hex of sha256 over a label and the key). */
  kek: string;
  /** base64url: 12-byte nonce, ciphertext, 16-byte tag. */
  iv: string;
  ct: string;
  tag: string;
};

/** A sealed key that no configured encryption key opens, or a key setting that is unusable. */
export class KeyEncryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyEncryptionError';
  }
}

const KEY_BYTES = 32;

/**
 * Reads a 32-byte key written as base64 (`openssl rand -base64 32`), base64url or hex (64 digits).
 * Returns a problem (never containing the value) when it is not one.
 */
export function parseEncryptionKey(value: string): Buffer | string {
  const text = value.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(text)
      ? Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : undefined;
  if (!bytes || bytes.length !== KEY_BYTES) {
    return 'must be 32 random bytes written as base64 or hex (make one with: openssl rand -base64 32)';
  }
  return bytes;
}

/** The fingerprint a sealed value records for `key` (one-way; says nothing about the key). */
export function keyFingerprint(key: Buffer): string {
  return createHash('sha256').update('lumina key-encryption v1\0').update(key).digest('hex').slice(0, 16);
}

export function isSealedJwk(value: unknown): value is SealedJwk {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    v.sealed === 'A256GCM' &&
    typeof v.kek === 'string' &&
    typeof v.iv === 'string' &&
    typeof v.ct === 'string' &&
    typeof v.tag === 'string'
  );
}

export class KeyEncryption {
  private readonly keys: Map<string, Buffer>;

  /** Fingerprint of the key that seals. */
  readonly currentKeyId: string;

  /** `current` seals and opens; each of `previous` only opens (for rotating the encryption key). */
  constructor(
    private readonly current: Buffer,
    previous: readonly Buffer[] = [],
  ) {
    if (current.length !== KEY_BYTES || previous.some((k) => k.length !== KEY_BYTES)) {
      throw new KeyEncryptionError('encryption keys are 32 bytes');
    }
    this.currentKeyId = keyFingerprint(current);
    this.keys = new Map([...previous, current].map((k) => [keyFingerprint(k), k]));
  }

  /**
   * Encrypts a private JWK. `context` (e.g. the key's `kid`) is authenticated with it: a sealed value
   * copied onto another row does not open there.
   */
  seal(jwk: JWK, context: string): SealedJwk {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
    return {
      sealed: 'A256GCM',
      kek: this.currentKeyId,
      iv: iv.toString('base64url'),
      ct: ct.toString('base64url'),
      tag: cipher.getAuthTag().toString('base64url'),
    };
  }

  /** Decrypts a sealed JWK with whichever configured key sealed it; KeyEncryptionError when none can. */
  open(sealed: SealedJwk, context: string): JWK {
    const key = this.keys.get(sealed.kek);
    if (!key) {
      throw new KeyEncryptionError(
        `it was encrypted with another key (fingerprint ${sealed.kek}; the current key is ${this.currentKeyId})`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64url')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as JWK;
    } catch {
      throw new KeyEncryptionError('it does not decrypt (altered, or moved from another row)');
    }
  }

  /** Whether a stored value should be sealed again with the current key (plain, or sealed with an old one). */
  needsSealing(stored: unknown): boolean {
    return !isSealedJwk(stored) || stored.kek !== this.currentKeyId;
  }
}
