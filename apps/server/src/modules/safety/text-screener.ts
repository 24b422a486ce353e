import type { Logger } from '../../logger.ts';
import { judge, type SafetyDecision, type SafetyPolicy, type SafetyVerdict } from './policy.ts';
import { screenTextWithLexicon, type TextToScreen } from './text-screen.ts';

export type { TextToScreen };

/** A vendor's opinion of some text, as our categories (see openai-moderation.ts). */
export interface TextModeration {
  moderate(input: TextToScreen): Promise<SafetyDecision[]>;
}

export interface TextScreening {
  /** Every category found, with its score and source; never the matched words or the text. */
  decisions: SafetyDecision[];
  verdict: SafetyVerdict;
}

export interface TextScreener {
  screen(input: TextToScreen): Promise<TextScreening>;
}

/**
 * Screens text with the built-in lexicons, and with a vendor's moderation when one is configured. The
 * vendor adds decisions; it never removes the lexicon's. When the vendor cannot answer, the lexicon
 * decides alone and a warning is logged (without the text): a vendor outage must not stop every
 * request, and the built-in screen is the floor the policy promises.
 */
export function createTextScreener(deps: {
  policy: SafetyPolicy;
  moderation?: TextModeration;
  log?: Pick<Logger, 'warn'>;
}): TextScreener {
  return {
    async screen(input) {
      const decisions = screenTextWithLexicon(input);
      if (deps.moderation && input.texts.some((t) => t.trim())) {
        try {
          decisions.push(...(await deps.moderation.moderate(input)));
        } catch (err) {
          deps.log?.warn(
            { err: { name: (err as Error).name, status: (err as { status?: number }).status } },
            'text moderation unavailable; the built-in screen decided alone',
          );
        }
      }
      return { decisions, verdict: judge(deps.policy, decisions) };
    },
  };
}
