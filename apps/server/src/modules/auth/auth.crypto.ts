import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Small crypto helpers for tokens: all randomness from the OS CSPRNG, all comparisons constant-time. */

export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export const sha256Base64Url = (value: string) =>
  createHash('sha256').update(value, 'utf8').digest('base64url');

export const hmacHex = (key: string, value: string) =>
  createHmac('sha256', key).update(value, 'utf8').digest('hex');

/** A random URL-safe token with `bytes` bytes of entropy. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** A numeric code with `digits` digits, uniformly distributed (leading zeros kept). */
export const randomDigits = (digits: number) => String(randomInt(0, 10 ** digits)).padStart(digits, '0');

/** Constant-time string equality (length leaks, which is fine for fixed-length hashes). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
