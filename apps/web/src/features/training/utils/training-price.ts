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

/**
 * The slider's increment: the largest round number the bounds and the default all fall on, so the
 * browser never moves the default to fit the grid; at most a hundredth of the range.
 */
export function stepsIncrement(training: NonNullable<ModelInfo['training']>): number {
  const { min_steps: min, max_steps: max, default_steps: start } = training;
  const fits = (n: number) => (max - min) % n === 0 && (start - min) % n === 0 && n * 100 <= max - min;
  return [100, 50, 25, 10, 5, 2].find(fits) ?? 1;
}
