import type { Config } from '../../../config.ts';
import { TRANSIENT_MESSAGE, VendorRequestEndedError, downloadWeights, trainingZip } from '../hosted.ts';
import type { RunContext } from '../text-to-image.ts';
import type { TrainerProvider, TrainingRequest, TrainingResult } from '../trainer.ts';
import { FalAdapter, falOptions, type FalOptions, type FalOverrides } from './fal.text-to-image.ts';

/**
 * Training a FLUX LoRA on fal.ai (`fal-ai/flux-lora-fast-training`), over the same queue cycle as
 * generation (`FalQueue`: submit with `fal_webhook` → poll status with logs → result, resume, cancel,
 * deadline, error kinds). The photos go in as one zip `File`, which `@fal-ai/client` uploads to fal
 * storage (initiate + PUT, multipart above 90 MB) before submitting, so a resumed training is polled and
 * never re-uploaded. The finished LoRA is downloaded at once (fal's URLs expire); generation then runs
 * `fal-ai/flux-lora` with our copy as `loras[].path`. See docs/reference/providers/fal.md §8, §10.
 */

/** What generation with a fal-trained LoRA calls. */
export const FAL_LORA_MODEL = 'fal-ai/flux-lora';

/**
 * A training runs for minutes (fal quotes ~5 for 1000 steps, more when queued), far past a generation's
 * deadline; this is how long we wait before cancelling it at fal.
 */
export const FAL_TRAINING_TIMEOUT_MS = 2 * 60 * 60 * 1000;

export type FalTrainerOptions = FalOptions;

export class FalTrainer extends FalAdapter implements TrainerProvider {
  train(request: TrainingRequest, ctx: RunContext): Promise<TrainingResult> {
    return this.requests.run(
      request.providerModel,
      () => ({
        images_data_url: trainingZip(request.images),
        trigger_word: request.triggerWord,
        steps: request.steps,
        is_style: request.subject === 'style',
        // Masks focus the loss on faces; for a style or an object they would crop away what matters.
        create_masks: request.subject === 'person',
      }),
      ctx,
      async (output, requestId, signal) => {
        const url = (output as FalTrainingOutput | null)?.diffusers_lora_file?.url;
        if (typeof url !== 'string') {
          throw new VendorRequestEndedError(
            `fal training ${requestId} returned no LoRA file`,
            'transient',
            TRANSIENT_MESSAGE,
          );
        }
        const { bytes } = await downloadWeights(url, this.requests.fetchFn, signal, 'fal');
        return {
          kind: 'model',
          weights: {
            bytes,
            // fal's CDN serves .safetensors with whatever type it guessed; the format is what matters.
            contentType: 'application/octet-stream',
            fileName: 'lora.safetensors',
            generateWith: FAL_LORA_MODEL,
          },
          requestId,
        };
      },
    );
  }

  cancel(requestId: string, providerModel: string): Promise<boolean> {
    return this.requests.cancel(requestId, providerModel);
  }
}

/** `fal-ai/flux-lora-fast-training`'s output (fal File objects). */
interface FalTrainingOutput {
  diffusers_lora_file?: { url?: unknown };
}

/**
 * The fal trainer from config, or undefined when `FAL_KEY` is unset. Its deadline is the training one,
 * not the generation deadline `falOptions` takes from config, unless `overrides` set another.
 */
export function createFalTrainer(config: Pick<Config, 'providers'>, overrides?: FalOverrides) {
  const options = falOptions(config, { timeoutMs: FAL_TRAINING_TIMEOUT_MS, ...overrides });
  return options && new FalTrainer(options);
}
