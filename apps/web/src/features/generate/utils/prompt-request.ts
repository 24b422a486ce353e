import type { ModelInfo, PromptRequest } from '@lumina/contracts';
import type { GenerateFormValues } from '../stores/generate-form';

/** Builds the request body from the form and the chosen model's capabilities (unsupported knobs are left out). */
export function buildPromptRequest(values: GenerateFormValues, model: ModelInfo): PromptRequest {
  const seed = values.seed.trim();
  return {
    text: values.text,
    negative_text:
      model.supports.negative_prompt && values.negativeText.trim() ? values.negativeText : undefined,
    model: model.id,
    seed: model.supports.seed && values.seedLocked && seed !== '' ? Number(seed) : undefined,
    lora_scale: model.supports.lora_scale ? values.loraScale : undefined,
    prompt_strength: model.supports.prompt_strength ? values.promptStrength : undefined,
    aspect_ratio:
      values.aspectRatio && model.aspect_ratios.includes(values.aspectRatio) ? values.aspectRatio : undefined,
    num_images: Math.min(Math.max(1, values.numImages), model.max_images),
  };
}
