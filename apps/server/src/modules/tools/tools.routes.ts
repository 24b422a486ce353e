import {
  ANIMATE_DURATIONS,
  contracts,
  CopyStyleForm,
  EDIT_DEFAULT_STRENGTH,
  EditImageFileForm,
  PRODUCT_ASPECT_RATIOS,
  ProductHoldingForm,
  TOOLS,
  UPSCALE_FACTORS,
} from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { UPSCALE_MAX_SIDE } from '../../adapters/providers/local/tools/upscale.ts';
import { UPSCALE_4X_MULTIPLIER } from '../../adapters/providers/tools-catalogue.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../http/route.ts';
import { readForm } from '../uploads/multipart.ts';
import { fetchImageUrl } from './fetch-image-url.ts';
import { sizeForAspectRatio } from './tool-recipe.ts';
import type { ToolRun, ToolSource, ToolsService } from './tools.service.ts';
import type { VideosService } from './videos.service.ts';

export interface ToolRouteDeps {
  tools: ToolsService<{ id: string }>;
  videos: VideosService;
  uploads: { maxBytes: number; maxPixels: number; allowPrivateUrls: boolean };
}

const NO_SETTINGS = {
  prompt: null,
  negativePrompt: null,
  description: null,
  strength: null,
  factor: null,
  aspectRatio: null,
  width: null,
  height: null,
  durationSeconds: null,
} as const;

/** Exactly one of a file field and an image-id field: the upload, or an image the person already has. */
function oneSource(
  files: Record<string, { filename: string; bytes: Buffer }>,
  fileField: string,
  imageId: string | undefined,
  idField: string,
  what: string,
): ToolSource {
  const file = files[fileField];
  if (file && imageId)
    throw new AppError(
      'VALIDATION_FAILED',
      `Give either ${fileField} or ${idField} for the ${what}, not both.`,
    );
  if (file) return { file, field: fileField };
  if (imageId) return { imageId };
  throw new AppError(
    'VALIDATION_FAILED',
    `Add the ${what}: upload ${fileField} or choose one with ${idField}.`,
  );
}

function requireFile(
  files: Record<string, { filename: string; bytes: Buffer }>,
  field: string,
  what: string,
) {
  const file = files[field];
  if (!file) throw new AppError('VALIDATION_FAILED', `Add ${what} as the "${field}" file.`);
  return file;
}

const accepted = (r: { job: { id: string }; cost: number; balance: number }) => ({
  job_id: r.job.id,
  status: 'queued' as const,
  cost: r.cost,
  balance: r.balance,
});

/** An edit, whether the image came by id, URL or file: the same settings either way. */
function editRun(
  source: ToolSource,
  body: { prompt: string; negative_prompt?: string; strength?: number; seed?: number; model?: string },
): ToolRun {
  return {
    tool: 'edit',
    model: body.model,
    sources: [source],
    seed: body.seed,
    settings: {
      ...NO_SETTINGS,
      prompt: body.prompt,
      negativePrompt: body.negative_prompt ?? null,
      strength: body.strength ?? EDIT_DEFAULT_STRENGTH,
    },
  };
}

/** Edit, copy style, product holding, upscale, animate, the videos list and the tool catalogue. */
export function toolsRoutes(app: FastifyInstance, deps: ToolRouteDeps): void {
  const auth = { preHandler: app.requireUser };
  const { tools, videos } = deps;

  route(
    app,
    contracts.editImage,
    async ({ user, body }) => {
      const source: ToolSource = body.image_id
        ? { imageId: body.image_id }
        : {
            file: await fetchImageUrl(body.image_url!, {
              maxBytes: deps.uploads.maxBytes,
              allowPrivate: deps.uploads.allowPrivateUrls,
            }),
            field: 'image_url',
          };
      return accepted(await tools.start(user.id, editRun(source, body)));
    },
    auth,
  );

  route(
    app,
    contracts.editImageFile,
    async (request) => {
      const { fields: body, files } = await readForm(request, EditImageFileForm, deps.uploads.maxBytes);
      const file = requireFile(files, 'image_file', 'the image to edit');
      return accepted(await tools.start(request.user.id, editRun({ file, field: 'image_file' }, body)));
    },
    auth,
  );

  route(
    app,
    contracts.copyStyle,
    async (request) => {
      const { fields: body, files } = await readForm(request, CopyStyleForm, deps.uploads.maxBytes);
      const file = requireFile(files, 'image', 'the style reference image');
      return accepted(
        await tools.start(request.user.id, {
          tool: 'copy_style',
          model: body.model,
          sources: [{ file, field: 'image' }],
          seed: body.seed,
          settings: { ...NO_SETTINGS, description: body.description },
        }),
      );
    },
    auth,
  );

  route(
    app,
    contracts.productHolding,
    async (request) => {
      const { fields: body, files } = await readForm(request, ProductHoldingForm, deps.uploads.maxBytes);
      const person = oneSource(files, 'person_file', body.person_image_id, 'person_image_id', 'person photo');
      const product = oneSource(
        files,
        'product_file',
        body.product_image_id,
        'product_image_id',
        'product photo',
      );
      return accepted(
        await tools.start(request.user.id, {
          tool: 'product_holding',
          model: body.model,
          sources: [person, product],
          seed: body.seed,
          settings: {
            ...NO_SETTINGS,
            prompt: body.prompt ?? null,
            aspectRatio: body.aspect_ratio,
            ...sizeForAspectRatio(body.aspect_ratio),
          },
        }),
      );
    },
    auth,
  );

  route(
    app,
    contracts.upscale,
    async ({ user, body }) =>
      accepted(
        await tools.start(user.id, {
          tool: 'upscale',
          model: body.model,
          sources: [{ imageId: body.image_id }],
          settings: { ...NO_SETTINGS, factor: body.factor },
          check: ([image]) => {
            const [w, h] = [image!.width * body.factor, image!.height * body.factor];
            if (Math.max(w, h) > UPSCALE_MAX_SIDE) {
              throw new AppError(
                'VALIDATION_FAILED',
                `Upscaling this ${image!.width} × ${image!.height} image ${body.factor}× would make it ${w} × ${h} pixels; the most is ${UPSCALE_MAX_SIDE} pixels on a side. Choose 2× or a smaller image.`,
              );
            }
          },
        }),
      ),
    auth,
  );

  route(
    app,
    contracts.animate,
    async ({ user, body }) =>
      accepted(
        await tools.start(user.id, {
          tool: 'animate',
          model: body.model,
          sources: [{ imageId: body.image_id }],
          seed: body.seed,
          settings: { ...NO_SETTINGS, prompt: body.prompt ?? null, durationSeconds: body.duration },
        }),
      ),
    auth,
  );

  route(app, contracts.videos, async ({ user, query }) => videos.list(user.id, query), auth);
  route(
    app,
    contracts.saveVideo,
    async ({ user, params }) => videos.setSaved(user.id, params.id, true),
    auth,
  );
  route(
    app,
    contracts.unsaveVideo,
    async ({ user, params }) => videos.setSaved(user.id, params.id, false),
    auth,
  );
  route(
    app,
    contracts.deleteVideo,
    async ({ user, params }) => {
      await videos.delete(user.id, params.id);
      return { deleted: true as const };
    },
    auth,
  );

  route(app, contracts.tools, async () => ({
    tools: tools.catalogue(TOOLS),
    aspect_ratios: [...PRODUCT_ASPECT_RATIOS],
    upscale_factors: [...UPSCALE_FACTORS],
    animate_durations: [...ANIMATE_DURATIONS],
    upload_max_bytes: deps.uploads.maxBytes,
    upload_max_pixels: deps.uploads.maxPixels,
    pricing: { upscale_4x_multiplier: UPSCALE_4X_MULTIPLIER, animate_per_second: true },
  }));
}
