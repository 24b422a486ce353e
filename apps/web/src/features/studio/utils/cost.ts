import type { Tool } from '@lumina/contracts';

/** How GET /api/tools says a run's price follows from a model's `credit_cost`. */
export interface ToolPricing {
  upscale_4x_multiplier: number;
  animate_per_second: boolean;
}

export interface RunSettings {
  /** Upscale only: 2 or 4. */
  factor?: number;
  /** Animate only: seconds of video. */
  duration?: number;
}

/**
 * Credits a run will charge: the model's price, times the 4× multiplier for a 4× upscale, and per second
 * of video for animate when the pricing says so. Nothing is charged without a model.
 */
export function toolCost(
  tool: Tool,
  model: { credit_cost: number } | undefined,
  pricing: ToolPricing | undefined,
  settings: RunSettings = {},
): number {
  if (!model) return 0;
  const base = model.credit_cost;
  if (tool === 'upscale' && settings.factor === 4) return base * (pricing?.upscale_4x_multiplier ?? 1);
  if (tool === 'animate' && pricing?.animate_per_second) return base * (settings.duration ?? 0);
  return base;
}

export type Affordability = { ok: true } | { ok: false; missing: number };

/** Whether the known balance covers the cost; an unknown balance (still loading) never blocks. */
export function affordability(cost: number, balance: number | undefined): Affordability {
  if (balance === undefined || balance >= cost) return { ok: true };
  return { ok: false, missing: cost - balance };
}

/** The pixel size an upscale produces. */
export function upscaledSize(width: number, height: number, factor: number) {
  return { width: width * factor, height: height * factor };
}
