import {
  ANIMATE_DURATIONS,
  PRODUCT_ASPECT_RATIOS,
  UPSCALE_4X_MULTIPLIER,
  UPSCALE_FACTORS,
  type Tool,
} from '@lumina/contracts';
import type { ToolModel } from '../../adapters/providers/catalogue.ts';
import type { ModelCatalogue } from '../models/model-catalogue.ts';

/** A tool model → wire. */
export function toToolModelInfo(m: ToolModel, available: boolean, reason: string | null) {
  return {
    id: m.id,
    display_name: m.displayName,
    description: m.description,
    provider: m.provider,
    available,
    unavailable_reason: reason,
    credit_cost: m.creditCost,
  };
}

/** A tool with its default and its models → wire. */
export function toToolInfo(tool: Tool, registry: Pick<ModelCatalogue, 'defaultModel' | 'list'>) {
  return {
    tool,
    default_model: registry.defaultModel(tool)?.id ?? null,
    models: registry.list(tool).map((m) => toToolModelInfo(m, m.available, m.unavailableReason ?? null)),
  };
}

/** The tools, their options, the upload limits and how a run's price follows → GET /api/tools. */
export function toToolList(
  tools: Array<ReturnType<typeof toToolInfo>>,
  uploads: { maxBytes: number; maxPixels: number },
) {
  return {
    tools,
    aspect_ratios: [...PRODUCT_ASPECT_RATIOS],
    upscale_factors: [...UPSCALE_FACTORS],
    animate_durations: [...ANIMATE_DURATIONS],
    upload_max_bytes: uploads.maxBytes,
    upload_max_pixels: uploads.maxPixels,
    pricing: { upscale_4x_multiplier: UPSCALE_4X_MULTIPLIER, animate_per_second: true },
  };
}
