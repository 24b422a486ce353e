import { AppError } from '../../errors.ts';
import { CATEGORY_WORDING, type SafetyCategory } from './policy.ts';
import type { TextScreener, TextToScreen } from './text-screener.ts';

/**
 * The refusal a person sees: which rule, in words, and what to change; never the words that matched,
 * which would teach how to get around the list.
 */
export function contentRefused(category: SafetyCategory, what: string): AppError {
  const wording = CATEGORY_WORDING[category];
  return new AppError(
    'CONTENT_REFUSED',
    `This ${what} cannot be made: it falls under "${wording.title}" in our content policy. ${wording.change}`,
  );
}

/** Screens a request's text and throws the refusal when the policy refuses it; nothing is charged before. */
export async function refuseUnsafeText(
  screener: TextScreener,
  input: TextToScreen,
  what: string,
): Promise<void> {
  const { verdict } = await screener.screen(input);
  if (verdict.action === 'refuse' && verdict.category) throw contentRefused(verdict.category, what);
}
