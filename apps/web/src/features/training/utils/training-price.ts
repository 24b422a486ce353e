import { creditsFor, type ModelInfo } from '@lumina/contracts';

/** Credits a training costs: the contracts' price function, the one the server charges with. */
export function trainingPrice(trainer: Pick<ModelInfo, 'credit_cost'> | undefined, steps: number): number {
  return trainer ? creditsFor({ capability: 'train', creditCost: trainer.credit_cost, steps }) : 0;
}

/** The catalogue's train models (each with its step bounds), usable ones first. */
export function trainModels(models: readonly ModelInfo[]): ModelInfo[] {
  return models
    .filter((m) => m.capability === 'train' && m.training !== null)
    .sort((a, b) => Number(b.available) - Number(a.available));
}

/** Steps kept within the train model's bounds. */
export function clampSteps(trainer: ModelInfo | undefined, steps: number): number {
  if (!trainer?.training) return steps;
  return Math.min(trainer.training.max_steps, Math.max(trainer.training.min_steps, Math.round(steps)));
}
