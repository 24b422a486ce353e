import { z } from 'zod';
import { defineContract } from './contract.ts';
import { AspectRatio } from './models.ts';
import { text } from './text.ts';
import { TOOLS } from './tool-recipe.ts';

export const PROMPT_MAX_LENGTH = 2000;
export const SEED_MAX = 4_294_967_295;
export const MAX_IMAGES_PER_JOB = 4;

export const JobStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']);
export type JobStatus = z.infer<typeof JobStatus>;
export const JobKind = z.enum(['generate', ...TOOLS, 'train'] as const);
export type JobKind = z.infer<typeof JobKind>;

/** Empty (or null) means "pick a random seed"; the seed actually used is recorded on the image. */
const Seed = z
  .union([z.int().min(0).max(SEED_MAX), z.literal(''), z.null()])
  .optional()
  .transform((v) => (v === '' || v === null ? undefined : v))
  .describe(`An integer 0–${SEED_MAX}; empty for random`);

export const PromptRequest = z
  .object({
    text: text({ multiline: true, error: 'text is required' })
      .trim()
      .min(1, 'Describe the image you want')
      .max(PROMPT_MAX_LENGTH, `Keep the prompt under ${PROMPT_MAX_LENGTH} characters`),
    negative_text: text({ multiline: true })
      .trim()
      .max(PROMPT_MAX_LENGTH, `Keep the negative prompt under ${PROMPT_MAX_LENGTH} characters`)
      .nullish()
      .transform((v) => v || undefined),
    model: text().trim().min(1, 'Choose a model').max(100),
    seed: Seed,
    lora_scale: z
      .number()
      .min(0)
      .max(2)
      .nullish()
      .transform((v) => v ?? undefined),
    prompt_strength: z
      .number()
      .min(0)
      .max(1)
      .nullish()
      .transform((v) => v ?? undefined),
    aspect_ratio: AspectRatio.optional(),
    num_images: z.int().min(1).max(MAX_IMAGES_PER_JOB).default(1),
  })
  .meta({ id: 'PromptRequest' });
export type PromptRequest = z.input<typeof PromptRequest>;

export const JobAccepted = z
  .object({
    job_id: z.uuid(),
    status: JobStatus,
    cost: z.int().describe('Credits charged for this job'),
    balance: z.int().describe('Credit balance after the charge'),
  })
  .meta({ id: 'JobAccepted' });

export const JobView = z
  .object({
    id: z.uuid(),
    kind: JobKind,
    status: JobStatus,
    model: z.string(),
    prompt: z.string().nullable(),
    cost: z.int(),
    refunded: z.boolean(),
    queue_position: z.int().nullable().describe('1 = next; null when not queued'),
    percent: z.int().min(0).max(100).nullable(),
    message: z.string().nullable().describe('The latest progress line, e.g. "step 12/28"'),
    preview_url: z
      .string()
      .nullable()
      .describe(
        'While running: the latest live preview of the image being made (a small JPEG/PNG); null otherwise',
      ),
    error: z.string().nullable().describe('Why it failed, for people'),
    image_ids: z.array(z.uuid()),
    num_images: z.int(),
    purchase_id: z
      .uuid()
      .nullable()
      .describe('The purchase (photo shoot) this job is a stage of; such a job cannot be cancelled alone'),
    made_by: z
      .string()
      .nullable()
      .describe('The vendor that made the outputs, as people read it (e.g. "Replicate"); null until done'),
    moved: z
      .string()
      .nullable()
      .describe(
        'Why the job moved to another vendor, e.g. "fal.ai did not answer in time, so Replicate made this image"; null when it did not',
      ),
    created_at: z.iso.datetime(),
    started_at: z.iso.datetime().nullable(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Job' });
export type JobView = z.infer<typeof JobView>;

export const ProgressResponse = z.object({ jobs: z.array(JobView) }).meta({ id: 'Progress' });

export const promptContract = defineContract({
  method: 'POST',
  path: '/api/prompt',
  summary: 'Generate images from a prompt: charges credits and queues a job (202)',
  tags: ['generation'],
  body: PromptRequest,
  response: JobAccepted,
  status: 202,
});

export const progressContract = defineContract({
  method: 'GET',
  path: '/api/progress',
  summary: "The user's active and recent jobs with status, queue position and progress",
  tags: ['generation'],
  response: ProgressResponse,
});

export const progressStreamContract = defineContract({
  method: 'GET',
  path: '/api/progress/stream',
  summary: 'The same as /api/progress as Server-Sent Events (`event: progress`, data = Progress JSON)',
  tags: ['generation'],
  response: z.string().describe('text/event-stream'),
});

export const jobPreviewContract = defineContract({
  method: 'GET',
  path: '/api/jobs/{id}/preview',
  summary: "A running job's latest live preview image (only its owner's)",
  tags: ['generation'],
  params: z.object({ id: z.uuid('Not a job id') }),
  query: z.object({
    v: text()
      .regex(/^\d{1,16}$/, 'must be a version number')
      .optional(),
  }),
  response: z.unknown().describe('The preview image bytes (image/jpeg or image/png)'),
});

export const cancelJobContract = defineContract({
  method: 'DELETE',
  path: '/api/jobs/{id}',
  summary: 'Cancel a job; credits are refunded when the provider had not started it',
  tags: ['generation'],
  params: z.object({ id: z.uuid('Not a job id') }),
  response: JobView,
});
