import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { JobAccepted } from '../generation.ts';
import type { ToolDefinition } from './definition.ts';
import { ImageId, ModelId } from './fields.ts';

export const UPSCALE_FACTORS = [2, 4] as const;
export const UPSCALE_DEFAULT_FACTOR = 2;
/** A 4× upscale costs this many times the model's credit cost (a 2× one costs the credit cost). */
export const UPSCALE_4X_MULTIPLIER = 2;
/** The largest side, in pixels, an upscale may produce. */
export const UPSCALE_MAX_SIDE = 8192;

export const UpscaleRequest = z
  .object({
    image_id: ImageId,
    factor: z
      .union([z.literal(2), z.literal(4)], { error: 'factor must be 2 or 4' })
      .default(UPSCALE_DEFAULT_FACTOR),
    model: ModelId,
  })
  .meta({ id: 'UpscaleRequest' });

export const upscaleContract = defineContract({
  method: 'POST',
  path: '/api/upscale/',
  summary: 'Upscale one of your images 2× or 4×: charges credits and queues a job',
  tags: ['tools'],
  body: UpscaleRequest,
  response: JobAccepted,
  status: 202,
});

/** The pixel size an upscale produces. */
export function upscaledSize(width: number, height: number, factor: number) {
  return { width: width * factor, height: height * factor };
}

/** Why an upscale of this image by this factor is refused (too large a result), or null when it is fine. */
export function upscaleRefusal(image: { width: number; height: number }, factor: number): string | null {
  const { width: w, height: h } = upscaledSize(image.width, image.height, factor);
  if (Math.max(w, h) <= UPSCALE_MAX_SIDE) return null;
  return `Upscaling this ${image.width} × ${image.height} image ${factor}× would make it ${w} × ${h} pixels; the most is ${UPSCALE_MAX_SIDE} pixels on a side. Choose 2× or a smaller image.`;
}

export const upscaleTool = {
  tool: 'upscale',
  contracts: [upscaleContract],
  slots: [{ name: 'image', label: 'the image to upscale', idField: 'image_id', required: true }],
  defaults: { factor: UPSCALE_DEFAULT_FACTOR },
  price: { per: 'factor', multipliers: { 2: 1, 4: UPSCALE_4X_MULTIPLIER } },
} as const satisfies ToolDefinition;
