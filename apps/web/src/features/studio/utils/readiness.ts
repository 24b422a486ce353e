export type StartBlocker =
  'busy' | 'noModel' | 'unavailable' | 'noInput' | 'noPerson' | 'noProduct' | 'credits';

/** Why Start is disabled right now (the first reason that applies), or null when a run can start. */
export function startBlocker({
  missing,
  hasInput,
  model,
  affordable,
  busy,
}: {
  /** Why Start waits for each of the tool's inputs, in slot order. */
  missing: readonly StartBlocker[];
  /** Whether each of the tool's inputs is filled, in slot order. */
  hasInput: readonly boolean[];
  model: { available: boolean } | undefined;
  affordable: boolean;
  busy: boolean;
}): StartBlocker | null {
  if (busy) return 'busy';
  const empty = missing.find((_, index) => !hasInput[index]);
  if (empty) return empty;
  if (!model) return 'noModel';
  if (!model.available) return 'unavailable';
  if (!affordable) return 'credits';
  return null;
}
