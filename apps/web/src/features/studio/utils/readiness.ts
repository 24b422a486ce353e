import type { Tool } from '@lumina/contracts';

export type StartBlocker =
  'busy' | 'noModel' | 'unavailable' | 'noInput' | 'noPerson' | 'noProduct' | 'credits';

/** Why Start is disabled right now (the first reason that applies), or null when a run can start. */
export function startBlocker({
  tool,
  hasInput,
  model,
  affordable,
  busy,
}: {
  tool: Tool;
  /** Whether each of the tool's inputs is filled, in slot order (product holding: person, product). */
  hasInput: readonly boolean[];
  model: { available: boolean } | undefined;
  affordable: boolean;
  busy: boolean;
}): StartBlocker | null {
  if (busy) return 'busy';
  if (tool === 'product_holding') {
    if (!hasInput[0]) return 'noPerson';
    if (!hasInput[1]) return 'noProduct';
  } else if (!hasInput[0]) return 'noInput';
  if (!model) return 'noModel';
  if (!model.available) return 'unavailable';
  if (!affordable) return 'credits';
  return null;
}
