import { Tool, type ToolRecipe } from '@lumina/contracts';
import { z } from 'zod';

/**
 * What a tool job stores in `jobs.input`: everything needed to run it again (the sources by image id,
 * the settings, the seed actually used). Written when the job is created, read by the worker.
 */
export interface ToolJobInput {
  tool: Tool;
  /** In order: edit/upscale/animate/copy_style → [image]; product_holding → [person, product]. */
  sourceImageIds: string[];
  seed: number;
  prompt: string | null;
  negativePrompt: string | null;
  description: string | null;
  strength: number | null;
  factor: 2 | 4 | null;
  aspectRatio: string | null;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
}

/** `ToolJobInput` as a schema: what a tool job's `jobs.input` must hold. */
export const ToolJobInput = z.object({
  tool: Tool,
  sourceImageIds: z.array(z.uuid()),
  seed: z.int(),
  prompt: z.string().nullable(),
  negativePrompt: z.string().nullable(),
  description: z.string().nullable(),
  strength: z.number().nullable(),
  factor: z.union([z.literal(2), z.literal(4)]).nullable(),
  aspectRatio: z.string().nullable(),
  width: z.int().nullable(),
  height: z.int().nullable(),
  durationSeconds: z.number().nullable(),
});

/** The recipe as the API shows it on each output (snake_case, only what applies). */
export function wireRecipe(input: ToolJobInput): ToolRecipe {
  return {
    tool: input.tool,
    source_image_ids: input.sourceImageIds,
    ...(input.strength !== null ? { strength: input.strength } : {}),
    ...(input.factor !== null ? { factor: input.factor } : {}),
    ...(input.aspectRatio !== null ? { aspect_ratio: input.aspectRatio } : {}),
    ...(input.durationSeconds !== null ? { duration: input.durationSeconds } : {}),
    ...(input.description !== null ? { description: input.description } : {}),
  };
}

/** About one megapixel at the ratio, sides multiples of 16 (what image models expect). */
export function sizeForAspectRatio(ratio: string): { width: number; height: number } {
  const [a, b] = ratio.split(':').map(Number) as [number, number];
  const area = 1024 * 1024;
  const width = Math.round(Math.sqrt((area * a) / b) / 16) * 16;
  const height = Math.round((width * b) / a / 16) * 16;
  return { width, height };
}
