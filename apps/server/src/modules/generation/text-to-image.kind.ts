import { z } from 'zod';
import type { AspectRatio } from '@lumina/contracts';
import type { TextToImageRequest } from '../../adapters/providers/text-to-image.ts';
import type { JobRow } from '../../db/schema/index.ts';
import type { JobKind } from '../jobs/kinds.ts';
import type { JobModels } from '../jobs/models.ts';

/** The `jobs.kind` of a text-to-image job. */
export const TEXT_TO_IMAGE_KIND = 'generate';

/** The recipe stored on the job and copied onto each image. */
export interface GenerationRecipe {
  prompt: string;
  negativePrompt: string | null;
  seed: number;
  width: number;
  height: number;
  aspectRatio: AspectRatio | null;
  loraScale: number | null;
  promptStrength: number | null;
}

const GenerationRecipe = z.object({
  prompt: z.string(),
  negativePrompt: z.string().nullable(),
  seed: z.int(),
  width: z.int(),
  height: z.int(),
  aspectRatio: z.string().nullable(),
  loraScale: z.number().nullable(),
  promptStrength: z.number().nullable(),
});

const recipeOf = (job: JobRow) => job.input as unknown as GenerationRecipe;

/** The provider request for a job, from the recipe stored when it was created. */
function requestFor(job: JobRow): TextToImageRequest {
  const recipe = recipeOf(job);
  return {
    providerModel: job.providerModel,
    prompt: recipe.prompt,
    negativePrompt: recipe.negativePrompt ?? undefined,
    seed: recipe.seed,
    width: recipe.width,
    height: recipe.height,
    numImages: job.numImages,
    loraScale: recipe.loraScale ?? undefined,
    promptStrength: recipe.promptStrength ?? undefined,
  };
}

/** Text-to-image as a job kind: a prompt's images from the model recorded on the job. */
export function textToImageKind(models: JobModels): JobKind {
  return {
    kind: TEXT_TO_IMAGE_KIND,
    input: GenerationRecipe,
    output: 'images',
    async call(job) {
      const { adapter } = models.textToImage(job.modelId);
      const request = requestFor(job);
      return {
        run: async (ctx) => ({ kind: 'images', ...(await adapter.run(request, ctx)) }),
        cancel: (requestId) => adapter.cancel(requestId, job.providerModel),
      };
    },
    async cancel(job, requestId) {
      const adapter = models.textToImageAdapter(job.provider);
      return adapter ? adapter.cancel(requestId, job.providerModel) : false;
    },
    describe(job) {
      const recipe = recipeOf(job);
      return {
        prompt: recipe.prompt,
        negativePrompt: recipe.negativePrompt,
        loraScale: recipe.loraScale,
        promptStrength: recipe.promptStrength,
        recipe: null,
        sourceImageId: null,
      };
    },
  };
}
