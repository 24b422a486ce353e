import { creditsFor, type ModelInfo } from '@lumina/contracts';

/**
 * Credits a run will charge: the contracts' price function (the one the server charges with), per image
 * of the model's price. Nothing is charged without a model.
 */
export function totalCost(model: Pick<ModelInfo, 'credit_cost'> | undefined, numImages: number): number {
  return model ? creditsFor({ capability: 'text-to-image', creditCost: model.credit_cost, numImages }) : 0;
}
