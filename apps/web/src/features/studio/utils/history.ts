import type { ToolRunView } from '@lumina/contracts';
import { galleryInput } from '../stores/studio-store';
import { webTool, type ToolForms } from '../tools';
import type { ToolRun } from './inputs';

/** A run from the server's history as the studio shows a run it started itself. */
export function runFromHistory(run: ToolRunView): ToolRun {
  return {
    jobId: run.id,
    tool: run.tool,
    cost: run.cost,
    acceptedStatus: run.status,
    inputs: run.inputs.flatMap((image) => (image ? [galleryInput(image)] : [])),
    factor: run.settings.factor ?? undefined,
    aspectRatio: run.settings.aspect_ratio ?? undefined,
    duration: run.settings.duration ?? undefined,
    known: { imageIds: run.outputs.map((o) => o.id), refunded: run.refunded, error: run.error },
  };
}

/** The form settings a past run used, for its tool's form (the model only if it can still be chosen). */
export function formsFromHistory(
  run: ToolRunView,
  current: ToolForms,
  usableModels: readonly string[],
): { [K in keyof ToolForms]?: Partial<ToolForms[K]> } {
  const model = usableModels.includes(run.model) ? run.model : current[run.tool].model;
  const form = webTool(run.tool).fromHistory(run.settings, current[run.tool]);
  return { [run.tool]: { ...form, model } };
}
