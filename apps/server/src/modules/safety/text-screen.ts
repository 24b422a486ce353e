import { foldLookalikes } from '../../text-folding.ts';
import { lexiconMatches, type LexiconMeta } from './lexicon.ts';
import type { SafetyCategory, SafetyDecision } from './policy.ts';

/**
 * The built-in text screen: folds the text (invisible characters, fullwidth and other compatibility
 * forms, letter case, words spelled out letter by letter), matches it against the lexicons, and scores
 * each category. It answers categories and scores only: the matched words are never returned, so they
 * cannot reach a response or a log.
 */

export interface TextToScreen {
  /** Every piece of text of one request (prompt, negative prompt, caption…), screened together. */
  texts: readonly string[];
  /**
   * Texts that say what to keep out (a negative prompt). "nude, child, gore" there steers an image away
   * from them, so only words harmful whichever way they point (slurs) count.
   */
  negativeTexts?: readonly string[];
  /** Whether the request carries a photo (an edit, product holding, animate or training input). */
  hasPhoto: boolean;
}

/** Letters spelled out with separators ("s e x", "k.i.l.l"): three or more single characters in a row. */
const SPELLED_OUT = /(?<![\p{L}\p{N}])(?:[\p{L}\p{N}@$!|][\s._*~+-]+){2,}[\p{L}\p{N}@$!|](?![\p{L}\p{N}])/gu;
/** Word joiners that read as a space ("self-harm", "pipe_bomb"). */
const JOINERS = /[-_/\\]+/g;

export function foldForScreening(text: string): string {
  return foldLookalikes(text)
    .toLowerCase()
    .replace(SPELLED_OUT, (run) => run.replace(/[\s._*~+-]+/g, ''))
    .replace(JOINERS, ' ');
}

/**
 * The categories found, each with a score combining its matches as independent signals
 * (1 − Π(1 − weight)): two ambiguous words together say more than either alone, and one certain word
 * is certain. A minors term turns the sexual matches that are sexual on their own (weight ≥ 0.5)
 * into `sexual_minors`; with a photo, nudify instructions and sexual matches are `nudify_real_people`
 * (without one, a nudify instruction is sexual).
 */
export function screenTextWithLexicon(input: TextToScreen): SafetyDecision[] {
  const matches: LexiconMeta[] = [];
  for (const text of input.texts) if (text) matches.push(...lexiconMatches(foldForScreening(text)));
  for (const text of input.negativeTexts ?? []) {
    if (text) matches.push(...lexiconMatches(foldForScreening(text)).filter((m) => m.kind === 'hate'));
  }
  const signals = new Map<SafetyCategory, number[]>();
  const add = (category: SafetyCategory, weight: number) =>
    signals.set(category, [...(signals.get(category) ?? []), weight]);
  const minors = matches.some((m) => m.kind === 'minors');
  for (const { kind, weight } of matches) {
    if (kind === 'minors') continue;
    if (kind === 'nudify') {
      add(input.hasPhoto ? 'nudify_real_people' : 'sexual', weight);
      if (minors) add('sexual_minors', weight);
      continue;
    }
    add(kind, weight);
    if (kind === 'sexual') {
      if (minors && weight >= 0.5) add('sexual_minors', weight);
      if (input.hasPhoto) add('nudify_real_people', weight);
    }
  }
  return [...signals].map(([category, weights]) => ({
    category,
    score: round(1 - weights.reduce((rest, w) => rest * (1 - w), 1)),
    source: 'lexicon' as const,
  }));
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
