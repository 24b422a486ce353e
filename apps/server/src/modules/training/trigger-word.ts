import { randomInt } from 'node:crypto';

const CONSONANTS = 'bcdfghjklmnpqrstvwxz';
const VOWELS = 'aeiou';

/**
 * A trigger word when the person gives none: a short made-up token ("zovk47") that no prompt uses by
 * accident, in the spirit of the community's "ohwx" and "sks". Letters then two digits, so it matches
 * TRIGGER_WORD and is unlikely to repeat among one person's models.
 */
export function generateTriggerWord(): string {
  const pick = (from: string) => from[randomInt(from.length)]!;
  const word = pick(CONSONANTS) + pick(VOWELS) + pick(CONSONANTS) + pick(CONSONANTS);
  return `${word}${randomInt(10, 100)}`;
}
