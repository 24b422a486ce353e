import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * The content policy: what Lumina screens for, what it does when something is found, and how a person
 * is told. The built-in policy is strict, for a general-audience service; an operator relaxes or
 * tightens it with SAFETY_POLICY_FILE. Sexual content involving minors is always refused and no file
 * can change that.
 */

export const SAFETY_CATEGORIES = [
  'sexual',
  'sexual_minors',
  'nudify_real_people',
  'violence_gore',
  'hate',
  'self_harm',
  'serious_harm',
] as const;

export type SafetyCategory = (typeof SAFETY_CATEGORIES)[number];

/**
 * - `refuse`: text or an upload in this category is refused before anything is charged; an output found
 *   in it afterwards is withheld and refunded (it cannot be refused once made).
 * - `withhold`: the request goes ahead, and what it makes is held for an operator's review before its
 *   owner sees it.
 * - `allow`: nothing is stopped; the decision is still recorded, so an operator can see what passed.
 */
export type SafetyAction = 'refuse' | 'withhold' | 'allow';

export interface CategoryRule {
  action: SafetyAction;
  /** A decision counts when its score (0..1) is at least this. Lower is stricter. */
  threshold: number;
}

export type SafetyPolicy = Readonly<Record<SafetyCategory, Readonly<CategoryRule>>>;

/** The fixed rule for sexual content involving minors: always refused, on the faintest signal. */
const ZERO_TOLERANCE: CategoryRule = { action: 'refuse', threshold: 0.1 };

export const DEFAULT_POLICY: SafetyPolicy = Object.freeze({
  sexual: { action: 'refuse', threshold: 0.5 },
  sexual_minors: ZERO_TOLERANCE,
  nudify_real_people: { action: 'refuse', threshold: 0.5 },
  violence_gore: { action: 'refuse', threshold: 0.5 },
  hate: { action: 'refuse', threshold: 0.5 },
  self_harm: { action: 'refuse', threshold: 0.5 },
  serious_harm: { action: 'refuse', threshold: 0.5 },
});

/** How each category is explained to people: on the policy page and in every refusal. */
export interface CategoryWording {
  /** A short name, e.g. for a heading. */
  title: string;
  /** What the category covers. */
  covers: string;
  /** What to change so a request is accepted. */
  change: string;
}

export const CATEGORY_WORDING: Readonly<Record<SafetyCategory, CategoryWording>> = Object.freeze({
  sexual: {
    title: 'Sexual content',
    covers: 'Nudity, sexual acts and sexually explicit descriptions.',
    change: 'Describe the scene without nudity or sexual detail.',
  },
  sexual_minors: {
    title: 'Sexual content involving minors',
    covers:
      'Any sexual or suggestive content involving children or anyone who looks under 18. This is never allowed and may be reported to the authorities.',
    change: 'This cannot be made in any form.',
  },
  nudify_real_people: {
    title: 'Sexual edits of real people',
    covers: 'Undressing, nudifying or sexualising a photo of a real person.',
    change: 'Keep the person in the photo clothed and describe a non-sexual change.',
  },
  violence_gore: {
    title: 'Graphic violence and gore',
    covers:
      'Graphic injury, mutilation, dismemberment and gore. Action, battles and fantasy combat without graphic injury are fine.',
    change: 'Leave out the graphic injury: show the action, not the wounds.',
  },
  hate: {
    title: 'Hate',
    covers: 'Slurs and content that attacks people for who they are.',
    change: 'Remove the slur or the attack on a group of people.',
  },
  self_harm: {
    title: 'Self-harm',
    covers: 'Content that shows, encourages or explains suicide or self-injury.',
    change:
      'Choose another subject. If you are struggling, please reach out to someone you trust or a local crisis line.',
  },
  serious_harm: {
    title: 'Instructions for serious harm',
    covers: 'Instructions for making weapons, explosives, poisons or dangerous drugs.',
    change: 'Remove the request for instructions or recipes.',
  },
});

const Rule = z
  .object({
    action: z.enum(['refuse', 'withhold', 'allow']).optional(),
    threshold: z.number().min(0.01).max(1).optional(),
  })
  .strict();

const RELAXABLE = SAFETY_CATEGORIES.filter((c) => c !== 'sexual_minors');

const PolicyFile = z
  .object({
    categories: z
      .object(
        Object.fromEntries(RELAXABLE.map((c) => [c, Rule.optional()])) as Record<
          Exclude<SafetyCategory, 'sexual_minors'>,
          z.ZodOptional<typeof Rule>
        >,
      )
      .extend({ sexual_minors: z.unknown().optional() })
      .strict(),
  })
  .strict();

export class SafetyPolicyError extends Error {}

/**
 * The policy an operator's file describes, over the built-in one: each category named in the file takes
 * its `action` and/or `threshold`; the rest keep the defaults. Throws SafetyPolicyError with a message
 * naming what is wrong (the caller adds the setting's name).
 */
export function loadSafetyPolicy(file: string | undefined): SafetyPolicy {
  if (!file) return DEFAULT_POLICY;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SafetyPolicyError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SafetyPolicyError(`is not valid JSON (${(err as Error).message})`);
  }
  const parsed = PolicyFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    throw new SafetyPolicyError(`${where}${issue.message}`);
  }
  const { sexual_minors: minors, ...rest } = parsed.data.categories;
  if (minors !== undefined) {
    throw new SafetyPolicyError(
      'categories.sexual_minors cannot be set: sexual content involving minors is always refused',
    );
  }
  const policy: Record<SafetyCategory, CategoryRule> = { ...DEFAULT_POLICY };
  for (const [category, rule] of Object.entries(rest) as Array<[SafetyCategory, z.infer<typeof Rule>]>) {
    if (rule) policy[category] = { ...DEFAULT_POLICY[category], ...rule };
  }
  return Object.freeze(policy);
}

/** What is wrong with the policy file, or undefined when it loads. */
export function safetyPolicyProblem(file: string | undefined): string | undefined {
  try {
    loadSafetyPolicy(file);
    return undefined;
  } catch (err) {
    if (err instanceof SafetyPolicyError) return err.message;
    throw err;
  }
}

/** One finding about a piece of content: which category, how surely (0..1), and who said so. */
export interface SafetyDecision {
  category: SafetyCategory;
  score: number;
  source: 'lexicon' | 'openai';
}

/**
 * What the policy does with a set of decisions: the strictest action among the categories whose score
 * reaches their threshold (refuse over withhold over allow), and the category that decided it (with
 * several at one action, the most specific: minors first, so they always name the refusal, and an edit
 * of a real person before plain sexual content).
 */
export interface SafetyVerdict {
  action: SafetyAction;
  category?: SafetyCategory;
}

const SEVERITY: Record<SafetyAction, number> = { allow: 0, withhold: 1, refuse: 2 };
const PRECEDENCE: readonly SafetyCategory[] = [
  'sexual_minors',
  'nudify_real_people',
  'sexual',
  'serious_harm',
  'self_harm',
  'hate',
  'violence_gore',
];

export function judge(policy: SafetyPolicy, decisions: readonly SafetyDecision[]): SafetyVerdict {
  let verdict: SafetyVerdict = { action: 'allow' };
  for (const category of PRECEDENCE) {
    const rule = policy[category];
    const reached = decisions.some((d) => d.category === category && d.score >= rule.threshold);
    if (reached && SEVERITY[rule.action] > SEVERITY[verdict.action])
      verdict = { action: rule.action, category };
  }
  return verdict;
}
