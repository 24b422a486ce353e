import { createHmac, randomInt } from 'node:crypto';

/** No 0/O, 1/I/L: a code read aloud or copied from a screenshot is typed right. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GENERATED_LENGTH = 8;

/** A readable code for a person (8 characters, about 8.5 × 10¹¹ of them; a clash is retried). */
export function generateCode(): string {
  let code = '';
  for (let i = 0; i < GENERATED_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/**
 * What another person is shown of a referrer: the first word of their email's local part,
 * capitalised ("alice.smith@…" → "Alice"). Never the address; "A friend" when there is no word.
 */
export function displayName(email: string | null): string {
  const local = (email ?? '').split('@')[0] ?? '';
  const word = local.split(/[^\p{L}]+/u).find((w) => w.length > 0);
  if (!word) return 'A friend';
  const short = [...word].slice(0, 20).join('');
  return short[0]!.toUpperCase() + short.slice(1).toLowerCase();
}

/** An email as the referrer sees it: first letters and the top-level domain only (a•••@e•••.com). */
export function maskEmail(email: string | null): string {
  if (!email || !email.includes('@')) return '•••';
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${[...local][0] ?? ''}•••@${[...host][0] ?? ''}•••${tld}`;
}

/** A keyed hash of a client address: comparable for abuse review, never reversible to the address. */
export function addressHash(secret: string, address: string): string {
  return createHmac('sha256', secret).update(address, 'utf8').digest('hex');
}
