import { domainToASCII, domainToUnicode } from 'node:url';
import { foldLookalikes } from '../../text-folding.ts';

/**
 * The one form an email address is stored, looked up and compared in, so that addresses which look
 * alike are one address or are refused, never two accounts:
 *
 * - trimmed; invisible characters (Unicode format characters and default-ignorables: zero-width
 *   space/joiner/non-joiner, word joiner, BOM, soft hyphen, bidi controls, variation selectors,
 *   Hangul fillers…) removed; Unicode NFKC, so fullwidth and compatibility letters become the plain
 *   ones and a letter typed with a combining accent becomes the accented letter; lower-cased whole
 *   (the project's rule since the first sign-in: `Alice@X` and `alice@x` are one person);
 * - the domain through UTS #46 (Node's `domainToASCII`) and back to Unicode, so `xn--` and Unicode
 *   spellings of one domain are one domain, kept in the Unicode form the stored rows already use;
 * - refused when the local part, or one label of the domain, mixes scripts (UTS #39 single-script, with
 *   Han+Kana and Han+Hangul counting as one writing system), holds a letter outside the scripts
 *   UAX #31 recommends for identifiers, a non-ASCII symbol or punctuation mark, or a leftover generic
 *   combining mark that NFKC could not fold into a letter.
 */
export type CanonicalEmail =
  | {
      ok: true;
      email: string;
      /**
       * Whether canonicalising changed the local part beyond trimming and lower-casing. A provider that
       * vouches for `a\u200bb@x` vouches for that mailbox, not for `ab@x`.
       */
      localPartChanged: boolean;
    }
  | { ok: false; reason: EmailRefusal; message: string };

export type EmailRefusal = 'invalid' | 'mixed-scripts' | 'unusable-character';

/** What is wrong with a refused address, as a person reads it (the end of "This email address …"). */
export const EMAIL_PROBLEMS: Record<EmailRefusal, string> = {
  invalid: 'is not a valid address',
  'mixed-scripts': 'mixes letters from different alphabets',
  'unusable-character': 'has a character that cannot be used in an address',
};

const MESSAGES: Record<EmailRefusal, string> = {
  // The sign-in card has shown this wording since the first release; tests and translations rely on it.
  invalid: 'Email is invalid',
  'mixed-scripts': `This email address ${EMAIL_PROBLEMS['mixed-scripts']}. Please type it again.`,
  'unusable-character': `This email address ${EMAIL_PROBLEMS['unusable-character']}. Please type it again.`,
};

const MAX_LENGTH = 254;
const SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ASCII = /^[\x20-\x7e]$/;
const ADDRESS_LETTER = /^[\p{L}\p{M}\p{N}]$/u;
const NEUTRAL = /^[\p{sc=Common}\p{sc=Inherited}]$/u;
/** The generic combining diacritics (they stack on any letter); script-specific marks are letters' parts. */
const COMBINING_DIACRITICS: ReadonlyArray<readonly [number, number]> = [
  [0x0300, 0x036f],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x20d0, 0x20ff],
  [0xfe20, 0xfe2f],
];

/** UAX #31 Table 5, the scripts recommended for identifiers, each with its UTS #39 writing systems. */
const SCRIPTS = (
  [
    ['Arabic'],
    ['Armenian'],
    ['Bengali'],
    ['Bopomofo', 'Hanb'],
    ['Cyrillic'],
    ['Devanagari'],
    ['Ethiopic'],
    ['Georgian'],
    ['Greek'],
    ['Gujarati'],
    ['Gurmukhi'],
    ['Han', 'Hanb', 'Jpan', 'Kore'],
    ['Hangul', 'Kore'],
    ['Hebrew'],
    ['Hiragana', 'Jpan'],
    ['Kannada'],
    ['Katakana', 'Jpan'],
    ['Khmer'],
    ['Lao'],
    ['Latin'],
    ['Malayalam'],
    ['Myanmar'],
    ['Oriya'],
    ['Sinhala'],
    ['Tamil'],
    ['Telugu'],
    ['Thaana'],
    ['Thai'],
    ['Tibetan'],
  ] as const
).map(([name, ...systems]) => ({
  test: new RegExp(`^\\p{scx=${name}}$`, 'u'),
  sets: [name, ...systems] as string[],
}));

/** Canonicalises an email address typed by a person or sent by a provider, or says why it is refused. */
export function canonicalEmail(value: unknown): CanonicalEmail {
  if (typeof value !== 'string') return refused('invalid');
  const folded = foldLookalikes(value.trim()).toLowerCase().normalize('NFKC');
  if (!SHAPE.test(folded) || folded.length > MAX_LENGTH) return refused('invalid');
  const at = folded.lastIndexOf('@');
  const local = folded.slice(0, at);
  const ascii = domainToASCII(folded.slice(at + 1));
  if (!ascii || ascii.length > 253) return refused('invalid');
  const domain = domainToUnicode(ascii);
  const problem = partProblem(local) ?? domain.split('.').map(partProblem).find(Boolean);
  if (problem) return refused(problem);
  const email = `${local}@${domain}`;
  if (!SHAPE.test(email) || email.length > MAX_LENGTH) return refused('invalid');
  const typed = value.trim().toLowerCase();
  return { ok: true, email, localPartChanged: typed.slice(0, typed.lastIndexOf('@')) !== local };
}

/** Canonicalises an email domain on its own (a tenant's allowed domains), or undefined when it is not one. */
export function canonicalEmailDomain(value: string): string | undefined {
  const found = canonicalEmail(`x@${value}`);
  return found.ok ? found.email.slice(2) : undefined;
}

function refused(reason: EmailRefusal): CanonicalEmail {
  return { ok: false, reason, message: MESSAGES[reason] };
}

function isCombiningDiacritic(char: string): boolean {
  const code = char.codePointAt(0)!;
  return COMBINING_DIACRITICS.some(([first, last]) => code >= first && code <= last);
}

/** Why one local part or domain label cannot be used, or undefined when it can. */
function partProblem(part: string): EmailRefusal | undefined {
  let shared: string[] | undefined;
  for (const char of part) {
    if (ASCII.test(char)) {
      if (!/[a-z]/.test(char)) continue;
    } else if (!ADDRESS_LETTER.test(char) || isCombiningDiacritic(char)) {
      return 'unusable-character';
    }
    const sets = SCRIPTS.filter((s) => s.test.test(char)).flatMap((s) => s.sets);
    if (sets.length === 0) {
      if (NEUTRAL.test(char)) continue;
      return 'unusable-character';
    }
    shared = shared ? shared.filter((set) => sets.includes(set)) : sets;
    if (shared.length === 0) return 'mixed-scripts';
  }
  return undefined;
}
