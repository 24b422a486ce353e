import { z } from 'zod';
import { defineContract } from './contract.ts';
import { Vendor } from './models.ts';
import { ImageCredentialsView, ImageView } from './images.ts';
import { Tool } from './tool-recipe.ts';
import { PageCursor, pageLimit } from './text.ts';

/**
 * The image tools: edit, copy style, product holding, upscale and animate. Each starts a job (202) on
 * the same pipeline as text-to-image: charged up front, live progress, refunded on failure, results in
 * the gallery (videos in /api/animate/videos) with their recipe. Each tool's request schemas, routes,
 * input slots, limits, defaults and price rule are its definition in `tools/<tool>.ts`.
 *
 * Multipart routes have no JSON `body`; their fields are described by a `*Fields` schema, which
 * the server validates after reading the form and the web client uses to build the FormData.
 */

export * from './tools/index.ts';

/** Default upload size limit; the server's UPLOAD_MAX_BYTES may set another (GET /api/tools says which). */
export const UPLOAD_MAX_BYTES_DEFAULT = 20 * 1024 * 1024;

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

export const videoCredentialsContract = defineContract({
  method: 'GET',
  path: '/api/animate/videos/{id}/credentials',
  summary: 'Read the C2PA content credentials of one of your finished videos',
  tags: ['tools'],
  params: videoId,
  response: ImageCredentialsView,
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
    provider: Vendor,
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
