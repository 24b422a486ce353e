import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalEmail, canonicalEmailDomain } from './email-address.ts';

const canonical = (value: string) => {
  const found = canonicalEmail(value);
  return found.ok ? found.email : found.reason;
};

describe('canonical email addresses', () => {
  it('trims and lower-cases, as sign-in always has', () => {
    expect(canonical('  Alice@Example.COM ')).toBe('alice@example.com');
    expect(canonical('user+tag_x.y-z@sub.example.co.uk')).toBe('user+tag_x.y-z@sub.example.co.uk');
  });

  it('removes invisible characters: zero-width, joiners, word joiner, BOM, soft hyphen, bidi controls', () => {
    for (const invisible of [
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u00ad',
      '\u202e',
      '\u2066',
      '\u2069',
      '\u061c',
      '\u180e',
    ]) {
      expect(
        canonical(`al${invisible}ice@exa${invisible}mple.com`),
        `U+${invisible.codePointAt(0)!.toString(16)}`,
      ).toBe('alice@example.com');
    }
    expect(canonical('\u202eecila@example.com')).toBe('ecila@example.com');
  });

  it('folds fullwidth and compatibility letters (NFKC), the fullwidth @ included', () => {
    expect(canonical('ａｌｉｃｅ@ｅｘａｍｐｌｅ.ｃｏｍ')).toBe('alice@example.com');
    expect(canonical('alice\uff20example.com')).toBe('alice@example.com');
    expect(canonical('\ufb01sh@example.com')).toBe('fish@example.com');
    expect(canonical('𝐚𝐥𝐢𝐜𝐞@example.com')).toBe('alice@example.com');
  });

  it('composes a letter typed with a combining accent, and refuses a combining mark left over', () => {
    expect(canonical('jose\u0301@example.com')).toBe(canonical('jos\u00e9@example.com'));
    expect(canonical('ali\u0307ce@example.com')).toBe('unusable-character');
    expect(canonical('alic\u0335e@example.com')).toBe('unusable-character');
  });

  it('refuses mixed scripts in the local part and within a domain label', () => {
    expect(canonical('\u0430lice@example.com')).toBe('mixed-scripts'); // Cyrillic а
    expect(canonical('alice@ex\u0430mple.com')).toBe('mixed-scripts');
    expect(canonical('\u03bfmega@example.com')).toBe('mixed-scripts'); // Greek ο
    expect(canonical('alice@xn--exmple-4nf.com')).toBe('mixed-scripts'); // the same, spelled in punycode
  });

  it('accepts one script per part: Cyrillic, Greek, Japanese (Han with kana), and digits or punctuation with any', () => {
    expect(canonical('алиса@пример.рф')).toBe('алиса@пример.рф');
    expect(canonical('Σίσυφος@example.gr')).toBe('σίσυφος@example.gr');
    expect(canonical('山田たろう@example.jp')).toBe('山田たろう@example.jp');
    expect(canonical('alice@пример.com')).toBe('alice@пример.com');
    expect(canonical('alice.2024-x@пример.рф')).toBe('alice.2024-x@пример.рф');
  });

  it('keeps the domain in Unicode form, so the punycode spelling is the same address', () => {
    expect(canonical('alice@xn--e1afmkfd.xn--p1ai')).toBe('alice@пример.рф');
    expect(canonicalEmailDomain('XN--E1AFMKFD.xn--p1ai')).toBe('пример.рф');
    expect(canonicalEmailDomain('Acme.COM')).toBe('acme.com');
  });

  it('refuses letters of scripts not recommended for identifiers, and non-ASCII punctuation', () => {
    expect(canonical('\u13aa\u13de\u13c6\u13df\u13ac@example.com')).toBe('unusable-character'); // Cherokee "ALICE"
    expect(canonical('a\u2010b@example.com')).toBe('unusable-character'); // a hyphen that is not "-"
    expect(canonical('a\u00b7b@example.com')).toBe('unusable-character');
  });

  it('refuses what is not an address, with the message the card has always shown', () => {
    for (const value of [
      'not-an-email',
      'a@b',
      'a@b@c.com',
      '@example.com',
      'a@[1.2.3.4]',
      '\u200b@example.com',
      42,
      null,
    ]) {
      expect(canonicalEmail(value)).toEqual({ ok: false, reason: 'invalid', message: 'Email is invalid' });
    }
    expect(canonical(`${'a'.repeat(250)}@example.com`)).toBe('invalid');
  });

  it('says in words why a look-alike is refused', () => {
    expect(canonicalEmail('\u0430lice@example.com')).toMatchObject({
      message: 'This email address mixes letters from different alphabets. Please type it again.',
    });
    expect(canonicalEmail('ali\u0307ce@example.com')).toMatchObject({
      message: 'This email address has a character that cannot be used in an address. Please type it again.',
    });
  });

  it('tells a provider path whether the local part changed beyond case and spaces', () => {
    expect(canonicalEmail(' Alice@Example.com')).toMatchObject({ ok: true, localPartChanged: false });
    expect(canonicalEmail('alice@ex\u200bample.com')).toMatchObject({ ok: true, localPartChanged: false });
    expect(canonicalEmail('al\u200bice@example.com')).toMatchObject({ ok: true, localPartChanged: true });
    expect(canonicalEmail('ａlice@example.com')).toMatchObject({ ok: true, localPartChanged: true });
  });

  it('is idempotent: a canonical address is its own canonical form', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        (local, domain) => {
          const first = canonicalEmail(`${local}@${domain}.com`);
          if (first.ok)
            expect(canonicalEmail(first.email)).toEqual({
              ok: true,
              email: first.email,
              localPartChanged: false,
            });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
