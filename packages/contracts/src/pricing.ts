import type { Tool } from './tool-recipe.ts';
import { TOOL_DEFINITIONS } from './tools/index.ts';

/**
 * How a run's credits follow from its model's `creditCost`. The server charges with `creditsFor` and the
 * web shows its result, so the shown price is the charged price.
 */
export type PriceRule =
  | { per: 'run' }
  | { per: 'image' }
  | { per: 'second'; defaultSeconds: number }
  | { per: 'factor'; multipliers: Readonly<Record<number, number>> }
  /** Training: `creditCost` per `steps` training steps, rounded up. */
  | { per: 'steps'; steps: number };

/** What can be priced: text-to-image and each tool. */
export type PricedCapability = 'text-to-image' | Tool | 'train';

export const PRICE_RULES: { readonly [C in PricedCapability]: PriceRule } = {
  'text-to-image': { per: 'image' },
  train: { per: 'steps', steps: 1000 },
  ...(Object.fromEntries(Object.values(TOOL_DEFINITIONS).map((d) => [d.tool, d.price])) as Record<
    Tool,
    PriceRule
  >),
};

export interface PriceInput {
  capability: PricedCapability;
  /** The model's credit cost (per image, run or second, as its capability's rule says). */
  creditCost: number;
  numImages?: number;
  factor?: number;
  durationSeconds?: number;
  /** Training steps (train). */
  steps?: number;
}

/** Credits one run costs. */
export function creditsFor({
  capability,
  creditCost,
  numImages,
  factor,
  durationSeconds,
  steps,
}: PriceInput): number {
  const rule = PRICE_RULES[capability];
  switch (rule.per) {
    case 'image':
      return creditCost * (numImages ?? 1);
    case 'second':
      return creditCost * (durationSeconds ?? rule.defaultSeconds);
    case 'factor':
      return creditCost * (factor === undefined ? 1 : (rule.multipliers[factor] ?? 1));
    case 'run':
      return creditCost;
    case 'steps':
      return Math.ceil((creditCost * (steps ?? rule.steps)) / rule.steps);
  }
}
