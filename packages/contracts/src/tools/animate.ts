import { z } from 'zod';
import { defineContract } from '../contract.ts';
import { JobAccepted } from '../generation.ts';
import type { ToolDefinition } from './definition.ts';
import { ImageId, ModelId, optionalText, Seed } from './fields.ts';

export const ANIMATE_DURATIONS = [5, 10] as const;
export const ANIMATE_DEFAULT_DURATION = 5;

export const AnimateRequest = z
  .object({
    image_id: ImageId,
    prompt: optionalText('prompt'),
    duration: z
      .union([z.literal(5), z.literal(10)], {
        error: `duration must be ${ANIMATE_DURATIONS.join(' or ')} seconds`,
      })
      .default(ANIMATE_DEFAULT_DURATION),
    seed: Seed.nullish().transform((v) => v ?? undefined),
    model: ModelId,
  })
  .meta({ id: 'AnimateRequest' });

export const animateContract = defineContract({
  method: 'POST',
  path: '/api/animate',
  summary: 'Animate one of your images into a short MP4: charges credits and queues a job',
  tags: ['tools'],
  body: AnimateRequest,
  response: JobAccepted,
  status: 202,
});

export const animateTool = {
  tool: 'animate',
  contracts: [animateContract],
  slots: [{ name: 'image', label: 'the image to animate', idField: 'image_id', required: true }],
  defaults: { duration: ANIMATE_DEFAULT_DURATION },
  price: { per: 'second', defaultSeconds: ANIMATE_DEFAULT_DURATION },
} as const satisfies ToolDefinition;
