import { randomInt } from 'node:crypto';
import type { AspectRatio } from '@lumina/contracts';
import { creditsFor, SEED_MAX } from '@lumina/contracts';
import { sizeFor } from '../../adapters/providers/catalogue.ts';
import { AppError } from '../../errors.ts';
import type { JobsService, NewPaidJob } from '../jobs/jobs.service.ts';
import { LOCAL_STYLE_PREFIX } from '../../adapters/providers/local/style-profile.ts';
import {
  isPersonalModel,
  isPersonalModelId,
  type ModelCatalogue,
  type PersonalModel,
  type PersonalModelSource,
} from '../models/model-catalogue.ts';
import { TEXT_TO_IMAGE_KIND, type GenerationRecipe } from './text-to-image.kind.ts';
import { refuseUnsafeText } from '../safety/refusal.ts';
import type { TextScreener } from '../safety/text-screener.ts';

/** Resolves a model id to its catalogue entry and provider adapter (throws a readable AppError). */
export type ModelResolver = Pick<ModelCatalogue, 'get'>;

/** A person's own (trained) models, and how a hosted vendor fetches one's weights. */
export interface OwnModels extends PersonalModelSource {
  weightsUrl(model: PersonalModel): Promise<string>;
}

export interface PromptInput {
  text: string;
  negativeText?: string;
  model: string;
  seed?: number;
  loraScale?: number;
  promptStrength?: number;
  aspectRatio?: AspectRatio;
  numImages: number;
}

/**
 * Starting text-to-image jobs: the model's checks, the recipe and the price, here on the server; the
 * jobs pipeline (modules/jobs) charges, queues and runs it.
 */
export class GenerationService {
  constructor(
    private readonly models: ModelResolver,
    private readonly jobs: Pick<JobsService, 'enqueue'>,
    private readonly screener: TextScreener,
    private readonly own?: OwnModels,
  ) {}

  async create(userId: string, input: PromptInput) {
    // Screened before anything is priced or charged: a refused prompt leaves no job, charge or row.
    await refuseUnsafeText(
      this.screener,
      { texts: [input.text], negativeTexts: input.negativeText ? [input.negativeText] : [], hasPhoto: false },
      'prompt',
    );
    return this.jobs.enqueue(await this.prepare(userId, input));
  }

  /**
   * A text-to-image job checked and priced, not yet charged or queued: `create` starts it; a photo
   * shoot starts its own (at no cost, the purchase paid) through the same checks and recipe.
   */
  async prepare(userId: string, input: PromptInput): Promise<NewPaidJob> {
    const model = await this.model(userId, input.model);
    if (input.aspectRatio && !model.aspectRatios.includes(input.aspectRatio)) {
      throw new AppError(
        'VALIDATION_FAILED',
        `${model.displayName} does not offer the ${input.aspectRatio} aspect ratio. Choose one of: ${model.aspectRatios.join(', ')}.`,
      );
    }
    const maxImages = model.supports.maxImages;
    if (input.numImages > maxImages) {
      throw new AppError(
        'VALIDATION_FAILED',
        `${model.displayName} makes at most ${maxImages} ${maxImages === 1 ? 'image' : 'images'} at a time.`,
      );
    }
    const size = input.aspectRatio ? sizeFor(model, input.aspectRatio) : { ...model.defaultSize };
    const recipe: GenerationRecipe = {
      prompt: input.text,
      negativePrompt: model.supports.negativePrompt ? (input.negativeText ?? null) : null,
      // A random seed is chosen now, not by the provider, so every result can be reproduced.
      seed: input.seed ?? randomInt(0, SEED_MAX + 1),
      width: size.width,
      height: size.height,
      aspectRatio: input.aspectRatio ?? null,
      loraScale: model.supports.loraScale ? (input.loraScale ?? null) : null,
      promptStrength: model.supports.promptStrength ? (input.promptStrength ?? null) : null,
      ...(isPersonalModel(model) ? await this.trained(model, input.loraScale) : {}),
    };
    return {
      userId,
      kind: TEXT_TO_IMAGE_KIND,
      modelId: model.id,
      provider: model.provider,
      providerModel: model.providerModel,
      input: { ...recipe },
      numImages: input.numImages,
      cost: creditsFor({
        capability: 'text-to-image',
        creditCost: model.creditCost,
        numImages: input.numImages,
      }),
      reason: 'generation',
    };
  }

  /** A text-to-image model the user may use: a shared one, or one of their own trained models. */
  async model(userId: string, id: string) {
    // Only an id that can name a trained model needs the person's own models looked up.
    const own = this.own && isPersonalModelId(id) ? await this.own.forUser(userId) : [];
    return this.models.get('text-to-image', id, { userId, own }).model;
  }

  /**
   * What a job with a trained model carries so the worker needs no catalogue of anyone's models: the
   * weights (the local engine's style id, or a URL of our copy a hosted vendor can fetch) and, for
   * hosted vendors, the trigger word their LoRA answers to.
   */
  private async trained(model: PersonalModel, loraScale: number | undefined) {
    const local = model.provider === 'local';
    const url = local ? `${LOCAL_STYLE_PREFIX}${model.id}` : await this.own!.weightsUrl(model);
    return {
      lora: { url, scale: loraScale ?? 1 },
      triggerWord: local ? null : model.personal.triggerWord,
    };
  }
}
