import { z } from 'zod';
import { defineContract } from './contract.ts';
import { IMAGE_TOOLS, listChoices, ToolRecipe } from './tool-recipe.ts';

/** What an image can come from: a prompt, a tool that makes images, or an upload. */
const IMAGE_KINDS = ['generate', ...IMAGE_TOOLS, 'upload'] as const;
import { PageCursor, pageLimit, text } from './text.ts';

export const EXAMPLE_CATEGORY_MAX = 40;
export const PAGE_SIZE_MAX = 100;

export const ImageView = z
  .object({
    id: z.uuid(),
    url: z.string().describe('Short-lived URL of the full image'),
    thumbnail_url: z.string().describe('Short-lived URL of the WebP thumbnail'),
    width: z.int(),
    height: z.int(),
    content_type: z.string(),
    prompt: z.string().nullable(),
    negative_prompt: z.string().nullable(),
    model: z.string(),
    provider: z.string(),
    seed: z.int().nullable(),
    lora_scale: z.number().nullable(),
    prompt_strength: z.number().nullable(),
    duration_ms: z.int().nullable(),
    kind: z.string().describe('generate, upload, or the tool that made it (edit, copy_style, …)'),
    recipe: ToolRecipe.nullable().describe('For tool outputs: the source images and settings'),
    is_saved: z.boolean(),
    is_favorite: z.boolean(),
    is_example: z.boolean(),
    category: z.string().nullable(),
    is_own: z.boolean(),
    download_count: z.int(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Image' });
export type ImageView = z.infer<typeof ImageView>;

export const ImagePage = z
  .object({
    items: z.array(ImageView),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null at the end'),
  })
  .meta({ id: 'ImagePage' });

const boolFlag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true'));

const pageQuery = {
  cursor: PageCursor.optional(),
  limit: pageLimit(PAGE_SIZE_MAX, 24),
};

const Category = text()
  .trim()
  .min(1)
  .max(EXAMPLE_CATEGORY_MAX)
  .regex(/^[\p{L}\p{N} &'-]+$/u, 'Use letters, numbers, spaces, & and -');

const imageId = z.object({ id: z.uuid('Not an image id') });

export const listImagesContract = defineContract({
  method: 'GET',
  path: '/api/images',
  summary: "The user's images, newest first; or saved, favourites, or public examples",
  tags: ['images'],
  query: z.object({
    is_saved: boolFlag,
    is_example: boolFlag,
    is_favorite: boolFlag,
    category: Category.optional(),
    model: text().max(100).optional(),
    job_id: z.uuid('Not a job id').optional().describe("Only this job's results"),
    kind: z
      .enum(IMAGE_KINDS, { error: `kind must be ${listChoices(IMAGE_KINDS)}` })
      .optional()
      .describe('Only images of this kind. Without it, uploads are left out'),
    ...pageQuery,
  }),
  response: ImagePage,
});

export const saveImageContract = defineContract({
  method: 'PUT',
  path: '/api/images/{id}',
  summary: 'Save an image to the collection',
  tags: ['images'],
  params: imageId,
  response: ImageView,
});

export const unsaveImageContract = defineContract({
  method: 'DELETE',
  path: '/api/images/{id}/save',
  summary: 'Remove an image from the saved collection (the image itself stays)',
  tags: ['images'],
  params: imageId,
  response: ImageView,
});

export const deleteImageContract = defineContract({
  method: 'DELETE',
  path: '/api/images/{id}',
  summary: 'Delete an image and its files',
  tags: ['images'],
  params: imageId,
  response: z.object({ deleted: z.literal(true) }),
});

export const favoriteImageContract = defineContract({
  method: 'PUT',
  path: '/api/images/{id}/favorite',
  summary: 'Favourite an image (own or a public example)',
  tags: ['images'],
  params: imageId,
  response: ImageView,
});

export const unfavoriteImageContract = defineContract({
  method: 'DELETE',
  path: '/api/images/{id}/favorite',
  summary: 'Remove an image from favourites',
  tags: ['images'],
  params: imageId,
  response: ImageView,
});

export const publishExampleContract = defineContract({
  method: 'PUT',
  path: '/api/example_images/{id}',
  summary: 'Publish one of your images as a public example in a category',
  tags: ['examples'],
  params: imageId,
  body: z.object({ category: Category }),
  response: ImageView,
});

export const unpublishExampleContract = defineContract({
  method: 'DELETE',
  path: '/api/example_images/{id}',
  summary: 'Unpublish an example (its owner, or an operator listed in ADMIN_EMAILS)',
  tags: ['examples'],
  params: imageId,
  response: z.object({ unpublished: z.literal(true) }),
});

export const listExamplesContract = defineContract({
  method: 'GET',
  path: '/api/example_images',
  summary: 'Public example images, newest first, optionally by category',
  tags: ['examples'],
  auth: false,
  query: z.object({ category: Category.optional(), ...pageQuery }),
  response: ImagePage,
});

export const exampleCategoriesContract = defineContract({
  method: 'GET',
  path: '/api/example_images/categories',
  summary: 'Categories of public examples with counts',
  tags: ['examples'],
  auth: false,
  response: z
    .object({ categories: z.array(z.object({ name: z.string(), count: z.int() })) })
    .meta({ id: 'ExampleCategories' }),
});

export const imagesByModelContract = defineContract({
  method: 'GET',
  path: '/api/images/models/{id}',
  summary: "The user's images made with a model",
  tags: ['images'],
  params: z.object({ id: text().min(1).max(100) }),
  query: z.object(pageQuery),
  response: ImagePage,
});

export const trackDownloadContract = defineContract({
  method: 'POST',
  path: '/api/track/images/{id}',
  summary: 'Count a download of an image (own or example)',
  tags: ['images'],
  params: imageId,
  response: z.object({ download_count: z.int() }),
});

export const counterContract = defineContract({
  method: 'GET',
  path: '/api/counter',
  summary: 'The public counters the landing page shows: images made, models trained, photo shoots delivered',
  tags: ['images'],
  auth: false,
  response: z
    .object({
      count: z.int().describe('Images made on Lumina (same as `images`; kept for older clients)'),
      images: z.int().describe('Images made on Lumina'),
      models_trained: z.int().describe('Models trained to completion'),
      shoots_delivered: z.int().describe('Photo shoots delivered'),
    })
    .meta({ id: 'Counter' }),
});

/** An image's or video's C2PA content credentials, read back from its stored file (issue 17). */
export const ImageCredentialsView = z.object({
  present: z.boolean().describe('Whether the file carries a C2PA manifest (older images have none)'),
  issuer: z.string().nullable().describe('Who signed it: the signing certificate subject common name'),
  signed_at: z.string().nullable().describe('When it was signed (the trusted timestamp), if it has one'),
  generator: z.string().nullable().describe('The claim generator ("Lumina")'),
  actions: z.array(z.string()).describe('c2pa.created, c2pa.edited, …'),
  digital_source_type: z.string().nullable(),
  made_with_ai: z.boolean().describe('The digital source type says trained algorithmic media'),
  model: z.string().nullable(),
  vendor: z.string().nullable(),
  ingredients: z.array(z.string()).describe('The images it was edited from'),
  valid: z.boolean().describe('Whether the signature and the hashes validated'),
  problems: z.array(z.string()).describe('Validation failure codes, when not valid'),
});
export type ImageCredentialsView = z.infer<typeof ImageCredentialsView>;

export const imageCredentialsContract = defineContract({
  method: 'GET',
  path: '/api/images/{id}/credentials',
  summary: 'Read the C2PA content credentials of one of your images',
  tags: ['images'],
  params: imageId,
  response: ImageCredentialsView,
});
