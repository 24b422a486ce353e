import { describe, expect, it } from 'vitest';
import { creditsFor, PRICE_RULES } from './pricing.ts';
import { TOOLS } from './tool-recipe.ts';
import { ANIMATE_DURATIONS, TOOL_DEFINITIONS, UPSCALE_4X_MULTIPLIER, UPSCALE_FACTORS } from './tools.ts';

describe('creditsFor', () => {
  it('prices text-to-image per image', () => {
    for (const numImages of [1, 2, 3, 4]) {
      expect(creditsFor({ capability: 'text-to-image', creditCost: 3, numImages })).toBe(3 * numImages);
    }
    expect(creditsFor({ capability: 'text-to-image', creditCost: 3 })).toBe(3);
  });

  it('prices edit, copy style and product holding per run', () => {
    for (const capability of ['edit', 'copy_style', 'product_holding'] as const) {
      expect(creditsFor({ capability, creditCost: 4 })).toBe(4);
      expect(creditsFor({ capability, creditCost: 6, numImages: 3, factor: 4, durationSeconds: 10 })).toBe(6);
    }
  });

  it('prices a 2× upscale at the credit cost and a 4× one at the 4× multiplier', () => {
    expect(UPSCALE_4X_MULTIPLIER).toBe(2);
    const price = (factor?: number) => creditsFor({ capability: 'upscale', creditCost: 3, factor });
    expect(UPSCALE_FACTORS.map(price)).toEqual([3, 6]);
    expect(price(undefined)).toBe(3);
  });

  it('prices animate per second of video, 5 seconds when no duration is given', () => {
    const price = (durationSeconds?: number) =>
      creditsFor({ capability: 'animate', creditCost: 2, durationSeconds });
    expect(ANIMATE_DURATIONS.map(price)).toEqual([10, 20]);
    expect(price(undefined)).toBe(10);
  });

  it('has a price rule for every tool, taken from its definition', () => {
    for (const tool of TOOLS) {
      expect(TOOL_DEFINITIONS[tool].tool).toBe(tool);
      expect(PRICE_RULES[tool]).toBe(TOOL_DEFINITIONS[tool].price);
    }
  });
});
