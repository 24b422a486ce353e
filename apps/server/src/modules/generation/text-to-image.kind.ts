import { z } from 'zod';
import type { AspectRatio } from '@lumina/contracts';
import type { TextToImageRequest } from '../../adapters/providers/text-to-image.ts';
import type { JobRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
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
  /**
   * A trained model's weights (a URL the vendor fetches, or `local-style:<model id>`) and strength.
   * Absent on jobs made before training existed.
   */
  lora?: { url: string; scale: number } | null;
  /** Added in front of the prompt sent to the vendor when the prompt lacks it (hosted trained models). */
  triggerWord?: string | null;
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
  lora: z.object({ url: z.string(), scale: z.number() }).nullish(),
  triggerWord: z.string().nullish(),
});

const recipeOf = (job: JobRow) => job.input as unknown as GenerationRecipe;

/** The prompt with the trigger word in front, unless the person already wrote it. */
function withTrigger(prompt: string, triggerWord: string | null | undefined): string {
  if (!triggerWord) return prompt;
  // Trigger words are letters, digits and _ (TRIGGER_WORD): nothing to escape.
  return new RegExp(`\\b${triggerWord}\\b`, 'i').test(prompt) ? prompt : `${triggerWord} ${prompt}`;
}

/** The provider request for a job, from the recipe stored when it was created. */
function requestFor(job: JobRow): TextToImageRequest {
  const recipe = recipeOf(job);
  return {
    providerModel: job.providerModel,
    prompt: withTrigger(recipe.prompt, recipe.triggerWord),
    negativePrompt: recipe.negativePrompt ?? undefined,
    seed: recipe.seed,
    width: recipe.width,
    height: recipe.height,
    numImages: job.numImages,
    loraScale: recipe.loraScale ?? undefined,
    promptStrength: recipe.promptStrength ?? undefined,
    ...(recipe.lora ? { lora: recipe.lora } : {}),
  };
}

/** Text-to-image as a job kind: a prompt's images from the model recorded on the job. */
export function textToImageKind(models: JobModels): JobKind {
  return {
    kind: TEXT_TO_IMAGE_KIND,
    input: GenerationRecipe,
    output: 'images',
    async call(job) {
      // A trained model is its owner's, not in the shared catalogue: its job carries what it needs
      // (the weights in the recipe), and runs on its vendor's adapter.
      // The adapter of the vendor recorded on the job: the model's own, or the alternate it moved to.
      if (!recipeOf(job).lora) models.textToImage(job.modelId);
      const adapter = models.textToImageAdapter(job.provider);
      if (!adapter) {
        throw new AppError(
          'VALIDATION_FAILED',
          'This model’s image service is no longer available on this server.',
        );
      }
      const request = requestFor(job);
      return {
        run: async (ctx) => ({ kind: 'images', ...(await adapter.run(request, ctx)) }),
        cancel: (requestId) => adapter.cancel(requestId, job.providerModel),
      };
    },
    // A trained model's weights live with its vendor: no alternates.
    routes: (job) => (recipeOf(job).lora ? [] : models.routes(job.modelId, 'text-to-image')),
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
