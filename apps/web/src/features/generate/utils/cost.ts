import type { ModelInfo } from '@lumina/contracts';

/** Credits a run will charge: the model's price per image times the number of images. */
export function totalCost(model: Pick<ModelInfo, 'credit_cost'> | undefined, numImages: number): number {
  return model ? model.credit_cost * numImages : 0;
}

export type Affordability = { ok: true } | { ok: false; missing: number };

/** Whether the known balance covers the cost; an unknown balance (still loading) never blocks. */
export function affordability(cost: number, balance: number | undefined): Affordability {
  if (balance === undefined || balance >= cost) return { ok: true };
  return { ok: false, missing: cost - balance };
}
