import type { OpenAIModeration } from '../../adapters/providers/openai/openai.moderation.ts';
import type { SafetyCategory, SafetyDecision } from './policy.ts';
import type { TextModeration } from './text-screener.ts';

/**
 * OpenAI's categories as ours. Unmapped on purpose: `violence` (any fight, battle or threat: the
 * policy lets action without graphic injury pass; `violence/graphic` is its gore), `illicit` (ordinary
 * wrongdoing like shoplifting; `illicit/violent` is the weapons and explosives the policy refuses), and
 * `harassment` (insults aimed at a person; slurs and attacks on groups arrive as `hate`).
 */
const CATEGORY_MAP: Readonly<Record<string, SafetyCategory>> = {
  sexual: 'sexual',
  'sexual/minors': 'sexual_minors',
  hate: 'hate',
  'hate/threatening': 'hate',
  'violence/graphic': 'violence_gore',
  'self-harm': 'self_harm',
  'self-harm/intent': 'self_harm',
  'self-harm/instructions': 'self_harm',
  'illicit/violent': 'serious_harm',
};

/** Scores below this are noise, not worth a stored decision. */
const NOISE = 0.01;

/** OpenAI's moderation as decisions in our categories. */
export function openaiTextModeration(client: Pick<OpenAIModeration, 'categoryScores'>): TextModeration {
  return {
    async moderate(input) {
      const texts = input.texts.filter((t) => t.trim());
      if (texts.length === 0) return [];
      const scores = new Map<SafetyCategory, number>();
      const raise = (category: SafetyCategory, score: number) =>
        scores.set(category, Math.max(scores.get(category) ?? 0, score));
      for (const [name, score] of Object.entries(await client.categoryScores(texts))) {
        const category = CATEGORY_MAP[name];
        if (!category) continue;
        raise(category, score);
        // The same rule as the lexicon: sexual content asked of a photo is an edit of a real person.
        if (category === 'sexual' && input.hasPhoto) raise('nudify_real_people', score);
      }
      return [...scores]
        .filter(([, score]) => score >= NOISE)
        .map(([category, score]): SafetyDecision => ({
          category,
          score: Math.round(score * 1000) / 1000,
          source: 'openai',
        }));
    },
  };
}
