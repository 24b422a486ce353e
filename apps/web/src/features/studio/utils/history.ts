import type { ToolRunView } from '@lumina/contracts';
import { galleryInput, type ToolForms, type ToolRun } from '../stores/studio-store';

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
  const s = run.settings;
  const model = usableModels.includes(run.model) ? run.model : current[run.tool].model;
  switch (run.tool) {
    case 'edit':
      return {
        edit: {
          prompt: s.prompt ?? '',
          negativePrompt: s.negative_prompt ?? '',
          strength: s.strength ?? current.edit.strength,
          seed: s.seed !== null ? String(s.seed) : '',
          model,
        },
      };
    case 'copy_style':
      return { copy_style: { description: s.description ?? '', model } };
    case 'product_holding':
      return {
        product_holding: {
          aspectRatio: s.aspect_ratio ?? current.product_holding.aspectRatio,
          prompt: s.prompt ?? '',
          model,
        },
      };
    case 'upscale':
      return { upscale: { factor: s.factor ?? current.upscale.factor, model } };
    case 'animate':
      return {
        animate: { prompt: s.prompt ?? '', duration: s.duration ?? current.animate.duration, model },
      };
  }
}
