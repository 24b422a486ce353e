import type { JobKind, JobStatus, JobView, ModelInfo } from '@lumina/contracts';
import type { ModelListing } from '../../adapters/providers/registry.ts';
import type { JobRow } from '../../db/schema/index.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Row → wire. `ahead` is the number of queued jobs in front (0 = next), only for queued jobs. */
export function toJobView(row: JobRow, imageIds: string[], ahead?: number): JobView {
  const prompt = typeof row.input.prompt === 'string' ? row.input.prompt : null;
  return {
    id: row.id,
    kind: row.kind as JobKind,
    status: row.status as JobStatus,
    model: row.modelId,
    prompt,
    cost: row.cost,
    refunded: row.refundedAt !== null,
    // Waiting in our queue: our position. Handed to a provider that queues too: the provider's position.
    queue_position:
      row.status === 'queued' ? (ahead ?? 0) + 1 : row.status === 'running' ? row.queuePosition : null,
    percent: row.status === 'succeeded' ? 100 : row.percent,
    message: row.message,
    error: row.error,
    image_ids: imageIds,
    num_images: row.numImages,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}

/** Catalogue listing → wire. */
export function toModelInfo(model: ModelListing): ModelInfo {
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
  };
}
