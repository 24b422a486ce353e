import { creditsFor, type Tool } from '@lumina/contracts';
import { webTool, type ToolForms } from '../tools';

/**
 * Credits a run will charge: the contracts' price function (the one the server charges with) applied to
 * the model's price and the settings the tool's price depends on. Nothing is charged without a model.
 */
export function toolCost<T extends Tool>(
  tool: T,
  model: { credit_cost: number } | undefined,
  form: ToolForms[T],
): number {
  if (!model) return 0;
  const priced = webTool(tool).priceInput?.(form) ?? {};
  return creditsFor({ capability: tool, creditCost: model.credit_cost, ...priced });
}
