import type { ModelInfo } from '@lumina/contracts';
import type { ModelListing } from './model-catalogue.ts';

/** Catalogue listing → wire (GET /api/models). */
export function toModelInfo(model: ModelListing<'text-to-image'>): ModelInfo {
  return {
    id: model.id,
    display_name: model.displayName,
    description: model.description,
    provider: model.provider,
    capability: model.capability,
    available: model.available,
    unavailable_reason: model.unavailableReason ?? null,
    credit_cost: model.creditCost,
    default_width: model.defaultSize.width,
    default_height: model.defaultSize.height,
    aspect_ratios: [...model.aspectRatios],
    max_images: model.supports.maxImages,
    supports: {
      negative_prompt: model.supports.negativePrompt,
      seed: model.supports.seed,
      lora_scale: model.supports.loraScale,
      prompt_strength: model.supports.promptStrength,
    },
    accepts_lora: model.acceptsLora,
    personal: null,
    training: null,
  };
}
