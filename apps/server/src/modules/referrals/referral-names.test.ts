import { describe, expect, it } from 'vitest';
import { addressHash, displayName, generateCode, maskEmail } from './referral-names.ts';

describe('referral names', () => {
  it('generates 8 characters without look-alikes', () => {
    const codes = new Set(Array.from({ length: 200 }, generateCode));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
  });

  it('names a referrer by the first word of their email, capitalised, never the address', () => {
    expect(displayName('alice.smith@example.com')).toBe('Alice');
    expect(displayName('BOB_jones+promo@example.com')).toBe('Bob');
    expect(displayName('zoë@example.com')).toBe('Zoë');
    expect(displayName('42jean-luc@example.com')).toBe('Jean');
    expect(displayName('1234@example.com')).toBe('A friend');
    expect(displayName(null)).toBe('A friend');
    expect(displayName(`${'a'.repeat(60)}@example.com`)).toHaveLength(20);
  });

  it('masks an email to first letters and the top-level domain', () => {
    expect(maskEmail('alice@example.com')).toBe('a•••@e•••.com');
    expect(maskEmail('bob@mail.example.co.uk')).toBe('b•••@m•••.uk');
    expect(maskEmail('x@localhost')).toBe('x•••@l•••');
    expect(maskEmail(null)).toBe('•••');
    expect(maskEmail('not-an-email')).toBe('•••');
  });

  it('hashes an address with the key: stable, keyed, not the address', () => {
    const a = addressHash('secret', '203.0.113.7');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(addressHash('secret', '203.0.113.7')).toBe(a);
    expect(addressHash('other', '203.0.113.7')).not.toBe(a);
    expect(addressHash('secret', '203.0.113.8')).not.toBe(a);
  });
});
