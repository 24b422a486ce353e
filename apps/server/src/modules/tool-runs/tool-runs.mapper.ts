import type { ImageView, JobStatus, Tool, ToolRunView, VideoView } from '@lumina/contracts';
import type { JobRow } from '../../db/schema/index.ts';
import type { ToolJobInput } from '../tools/tool-recipe.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A tool job → one Studio run on the wire, with its inputs and outputs already mapped. */
export function toToolRunView(
  job: JobRow,
  parts: { inputs: Array<ImageView | null>; outputs: ImageView[]; video: VideoView | null },
): ToolRunView {
  const input = job.input as unknown as Partial<ToolJobInput>;
  return {
    id: job.id,
    tool: job.kind as Tool,
    status: job.status as JobStatus,
    model: job.modelId,
    cost: job.cost,
    refunded: job.refundedAt !== null,
    error: job.error,
    settings: {
      prompt: input.prompt ?? null,
      negative_prompt: input.negativePrompt ?? null,
      description: input.description ?? null,
      strength: input.strength ?? null,
      factor: input.factor ?? null,
      aspect_ratio: input.aspectRatio ?? null,
      duration: input.durationSeconds ?? null,
      seed: typeof input.seed === 'number' ? input.seed : null,
    },
    inputs: parts.inputs,
    outputs: parts.outputs,
    video: parts.video,
    created_at: job.createdAt.toISOString(),
    finished_at: iso(job.finishedAt),
  };
}
