import type { ModelInfo } from '@lumina/contracts';
import type { TextToImageModel } from '../../adapters/providers/catalogue.ts';
import { isPersonalModel, type ModelListing, type PersonalModel } from './model-catalogue.ts';

type Availability = { available: boolean; unavailableReason?: string };

/** A text-to-image listing → wire (GET /api/models); a person's own model carries its trigger word and cover. */
export function toModelInfo(
  model: ModelListing<'text-to-image'> | (PersonalModel & Availability),
): ModelInfo {
  return {
    ...textToImageFields(model),
    id: model.id,
    display_name: model.displayName,
    description: model.description,
    provider: model.provider,
    capability: model.capability,
    available: model.available,
    unavailable_reason: model.unavailableReason ?? null,
    credit_cost: model.creditCost,
    accepts_lora: model.acceptsLora,
    personal: isPersonalModel(model)
      ? { trigger_word: model.personal.triggerWord, cover_url: model.personal.coverUrl }
      : null,
    training: null,
  };
}

/**
 * A trainer → wire: its price is per 1000 steps, its step bounds and base model fill `training`, and
 * the sizes are its base model's (what the trained model will make).
 */
export function toTrainInfo(model: ModelListing<'train'>, base: TextToImageModel): ModelInfo {
  return {
    ...textToImageFields(base),
    id: model.id,
    display_name: model.displayName,
    description: model.description,
    provider: model.provider,
    capability: model.capability,
    available: model.available,
    unavailable_reason: model.unavailableReason ?? null,
    credit_cost: model.creditCost,
    accepts_lora: false,
    personal: null,
    training: {
      min_steps: model.steps.min,
      max_steps: model.steps.max,
      default_steps: model.steps.default,
      base_model: model.baseModelId,
    },
  };
}

function textToImageFields(model: TextToImageModel) {
  return {
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
  };
}
