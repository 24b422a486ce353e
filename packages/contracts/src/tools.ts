import { z } from 'zod';
import { defineContract } from './contract.ts';
import { JobAccepted, PROMPT_MAX_LENGTH, SEED_MAX } from './generation.ts';
import { ImageView } from './images.ts';
import { Tool } from './tool-recipe.ts';
import { decimalNumber, PageCursor, pageLimit, safeUrl, text, wholeNumber } from './text.ts';

/**
 * The image tools: edit, copy style, product holding, upscale and animate. Each starts a job (202) on
 * the same pipeline as text-to-image: charged up front, live progress, refunded on failure, results in
 * the gallery (videos in /api/animate/videos) with their recipe.
 *
 * Multipart routes have no JSON `body`; their fields are described by a `*Fields` schema below, which
 * the server validates after reading the form and the web client uses to build the FormData.
 */

/** Aspect ratios product holding offers (spec: "a fixed list"). */
export const PRODUCT_ASPECT_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'] as const;
export const UPSCALE_FACTORS = [2, 4] as const;
export const ANIMATE_DURATIONS = [5, 10] as const;
export const ANIMATE_DEFAULT_DURATION = 5;
export const EDIT_DEFAULT_STRENGTH = 0.6;
/** Default upload size limit; the server's UPLOAD_MAX_BYTES may set another (GET /api/tools says which). */
export const UPLOAD_MAX_BYTES_DEFAULT = 20 * 1024 * 1024;

const optionalText = (what: string) =>
  text({ multiline: true })
    .trim()
    .max(PROMPT_MAX_LENGTH, `Keep the ${what} under ${PROMPT_MAX_LENGTH} characters`)
    .nullish()
    .transform((v) => v || undefined);

const requiredText = (what: string, empty: string) =>
  text({ multiline: true, error: `${what} is required` })
    .trim()
    .min(1, empty)
    .max(PROMPT_MAX_LENGTH, `Keep the ${what} under ${PROMPT_MAX_LENGTH} characters`);

/** Multipart fields arrive as strings: empty means "not given"; anything else must be the number itself. */
const formField = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

const Seed = z.int('seed must be a whole number').min(0).max(SEED_MAX, `seed must be 0–${SEED_MAX}`);
const Strength = z
  .number('strength must be a number')
  .min(0.05, 'strength must be at least 0.05')
  .max(1, 'strength must be at most 1');
const ModelId = text()
  .trim()
  .min(1)
  .max(100)
  .optional()
  .describe('A tool model id from GET /api/tools; omitted = the default');
const ImageId = z.uuid('Not an image id');

// ---- edit ------------------------------------------------------------------------------------------

export const EditImageRequest = z
  .object({
    image_id: ImageId.optional().describe('One of your images'),
    image_url: safeUrl('image_url must be a web address')
      .max(2048)
      .optional()
      .describe('An http(s) image we fetch and store as one of your uploads'),
    prompt: requiredText('prompt', 'Describe the change you want'),
    negative_prompt: optionalText('negative prompt'),
    strength: Strength.optional().describe('0.05–1: how far the result may move from the original'),
    seed: Seed.nullish().transform((v) => v ?? undefined),
    model: ModelId,
  })
  .refine((b) => Boolean(b.image_id) !== Boolean(b.image_url), {
    message: 'Give exactly one of image_id or image_url',
  })
  .meta({ id: 'EditImageRequest' });

export const EditImageFileFields = z.object({
  prompt: requiredText('prompt', 'Describe the change you want'),
  negative_prompt: optionalText('negative prompt'),
  strength: formField(decimalNumber('strength must be a number').pipe(Strength)),
  seed: formField(wholeNumber('seed must be a whole number').pipe(Seed)),
  model: ModelId,
});

export const editImageContract = defineContract({
  method: 'POST',
  path: '/api/generate/falai/edit_image',
  summary: 'Edit one of your images (by id or by URL) from a prompt: charges credits and queues a job',
  tags: ['tools'],
  body: EditImageRequest,
  response: JobAccepted,
  status: 202,
});

export const EditImageFileForm = { files: ['image_file'], fields: EditImageFileFields } as const;

export const editImageFileContract = defineContract({
  method: 'POST',
  path: '/api/generate/falai/edit_image_file',
  summary:
    'Edit an uploaded image (multipart: image_file, prompt, negative_prompt?, strength?, seed?, model?)',
  tags: ['tools'],
  form: EditImageFileForm,
  response: JobAccepted,
  status: 202,
});

// ---- copy style ------------------------------------------------------------------------------------

export const CopyStyleFields = z.object({
  description: requiredText('description', 'Describe the picture to make in this style'),
  model: ModelId,
  seed: formField(wholeNumber('seed must be a whole number').pipe(Seed)),
});

export const CopyStyleForm = { files: ['image'], fields: CopyStyleFields } as const;

export const copyStyleContract = defineContract({
  method: 'POST',
  path: '/api/copy_style',
  summary: 'A new image in the style of an upload (multipart: image, description, model?, seed?)',
  tags: ['tools'],
  form: CopyStyleForm,
  response: JobAccepted,
  status: 202,
});

// ---- product holding -------------------------------------------------------------------------------

export const ProductHoldingFields = z.object({
  person_image_id: ImageId.optional(),
  product_image_id: ImageId.optional(),
  aspect_ratio: z.enum(PRODUCT_ASPECT_RATIOS, {
    error: `aspect_ratio must be one of ${PRODUCT_ASPECT_RATIOS.join(', ')}`,
  }),
  prompt: optionalText('prompt'),
  model: ModelId,
  seed: formField(wholeNumber('seed must be a whole number').pipe(Seed)),
});

export const ProductHoldingForm = {
  files: ['person_file', 'product_file'],
  fields: ProductHoldingFields,
} as const;

export const productHoldingContract = defineContract({
  method: 'POST',
  path: '/api/generate/falai/product_holding',
  summary:
    'A picture of a person holding a product (multipart: person_file | person_image_id, product_file | product_image_id, aspect_ratio, prompt?, model?)',
  tags: ['tools'],
  form: ProductHoldingForm,
  response: JobAccepted,
  status: 202,
});

// ---- upscale ---------------------------------------------------------------------------------------

export const UpscaleRequest = z
  .object({
    image_id: ImageId,
    factor: z.union([z.literal(2), z.literal(4)], { error: 'factor must be 2 or 4' }).default(2),
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

// ---- animate ---------------------------------------------------------------------------------------

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

export const VideoView = z
  .object({
    id: z.uuid().describe('The animate job id (the video exists once status is succeeded)'),
    status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    percent: z.int().nullable(),
    error: z.string().nullable(),
    prompt: z.string().nullable(),
    model: z.string(),
    source_image_id: z.uuid().nullable(),
    source_image: ImageView.nullable().describe(
      'The image the video was made from, while it still exists (for "Use as input")',
    ),
    is_saved: z.boolean().describe('Kept in the saved collection (PUT /api/animate/videos/{id}/save)'),
    url: z.string().nullable().describe('Short-lived URL of the MP4 (H.264)'),
    poster_url: z.string().nullable().describe('Short-lived URL of the poster frame (JPEG)'),
    duration_seconds: z.number().nullable(),
    width: z.int().nullable(),
    height: z.int().nullable(),
    bytes: z.int().nullable(),
    cost: z.int(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Video' });
export type VideoView = z.infer<typeof VideoView>;

export const videosContract = defineContract({
  method: 'GET',
  path: '/api/animate/videos',
  summary: "The user's videos (animate jobs), newest first, with status, poster, duration and size",
  tags: ['tools'],
  query: z.object({
    cursor: PageCursor.optional(),
    limit: pageLimit(100, 24),
    is_saved: z
      .enum(['true', 'false'], { error: 'is_saved must be true or false' })
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true'))
      .describe('true: only saved videos'),
  }),
  response: z
    .object({ items: z.array(VideoView), next_cursor: z.string().nullable() })
    .meta({ id: 'VideoPage' }),
});

const videoId = z.object({ id: z.uuid('Not a video id') });

export const saveVideoContract = defineContract({
  method: 'PUT',
  path: '/api/animate/videos/{id}/save',
  summary: 'Save a finished video to the collection',
  tags: ['tools'],
  params: videoId,
  response: VideoView,
});

export const unsaveVideoContract = defineContract({
  method: 'DELETE',
  path: '/api/animate/videos/{id}/save',
  summary: 'Remove a video from the saved collection (the video itself stays)',
  tags: ['tools'],
  params: videoId,
  response: VideoView,
});

export const deleteVideoContract = defineContract({
  method: 'DELETE',
  path: '/api/animate/videos/{id}',
  summary: 'Delete a finished video and its files',
  tags: ['tools'],
  params: videoId,
  response: z.object({ deleted: z.literal(true) }),
});

// ---- uploads and previews --------------------------------------------------------------------------

/** Both upload routes take one file and no text fields. */
export const UploadForm = { files: ['file'], fields: z.object({}) } as const;

export const uploadImageContract = defineContract({
  method: 'POST',
  path: '/api/images/upload',
  summary:
    'Store an uploaded image (multipart: file) as one of your images (kind "upload"): orientation applied, metadata stripped',
  tags: ['images'],
  form: UploadForm,
  response: ImageView,
  status: 201,
});

export const convertPreviewContract = defineContract({
  method: 'POST',
  path: '/api/images/convert-preview',
  summary:
    'A JPEG preview (at most 1024 px) of an upload the browser cannot show itself, e.g. HEIC, TIFF, AVIF (multipart: file)',
  tags: ['images'],
  form: UploadForm,
  response: z.unknown().describe('image/jpeg bytes'),
});

// ---- catalogue -------------------------------------------------------------------------------------

export const ToolModelInfo = z
  .object({
    id: z.string(),
    display_name: z.string(),
    description: z.string(),
    provider: z.enum(['local', 'fal', 'replicate']),
    available: z.boolean(),
    unavailable_reason: z.string().nullable(),
    /** Credits per run; upscale costs depend on the factor and animate on the duration (see `pricing`). */
    credit_cost: z.int(),
  })
  .meta({ id: 'ToolModel' });

export const ToolInfo = z
  .object({
    tool: Tool,
    default_model: z.string().nullable(),
    models: z.array(ToolModelInfo),
  })
  .meta({ id: 'ToolInfo' });

export const toolsContract = defineContract({
  method: 'GET',
  path: '/api/tools',
  summary: 'The image tools with their models, availability and credit costs, and the upload limits',
  tags: ['tools'],
  auth: false,
  response: z
    .object({
      tools: z.array(ToolInfo),
      aspect_ratios: z.array(z.string()),
      upscale_factors: z.array(z.int()),
      animate_durations: z.array(z.int()),
      upload_max_bytes: z.int(),
      upload_max_pixels: z.int(),
      pricing: z
        .object({
          upscale_4x_multiplier: z.int().describe('A 4× upscale costs this many times the model cost'),
          animate_per_second: z.boolean().describe('True: an animate model cost is per second of video'),
        })
        .describe('How a run cost is derived from credit_cost'),
    })
    .meta({ id: 'ToolList' }),
});
