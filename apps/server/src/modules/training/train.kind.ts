import { TRAINING_MIN_PHOTOS, TRAINING_SUBJECTS } from '@lumina/contracts';
import { z } from 'zod';
import { ProviderError } from '../../adapters/providers/text-to-image.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import type { JobRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { JobKind } from '../jobs/kinds.ts';
import type { JobModels } from '../jobs/models.ts';
import { loadTrainingPhotos } from '../training-sets/training-photos.ts';
import { markEnded } from './training.repository.ts';
import { REPLICATE_TRAINING_TIMEOUT_MS } from '../../adapters/providers/replicate/replicate.trainer.ts';

/** The `jobs.kind` of a training. */
export const TRAIN_KIND = 'train';

/** A training's recipe, stored on its job (the model row keeps the same, for people to read). */
export const TrainJobInput = z.object({
  setId: z.uuid(),
  triggerWord: z.string(),
  subject: z.enum(TRAINING_SUBJECTS),
  steps: z.int(),
  /** The catalogue's `train` entry, and the text-to-image model it extends (id and vendor name). */
  trainerModelId: z.string(),
  baseModelId: z.string(),
  baseProviderModel: z.string(),
  /** The trained_models row this job fills in. */
  trainedModelId: z.uuid(),
  /** Replicate's destination model (`owner/name`), null for other vendors. */
  destination: z.string().nullable(),
});
export type TrainJobInput = z.infer<typeof TrainJobInput>;

export const trainInputOf = (job: JobRow) => job.input as unknown as TrainJobInput;

/**
 * How long one try of a training may run (its queue entry's deadline): the longest vendor deadline
 * (Replicate's 3 h) plus time to copy the weights into our storage.
 */
export const TRAINING_TRY_SECONDS = REPLICATE_TRAINING_TIMEOUT_MS / 1000 + 15 * 60;

/**
 * Training as a job kind: the set's photos read back from storage, the trainer of the job's vendor,
 * and the trained model's row kept in step when the job fails or is cancelled (a ready model is the
 * 'model' output's).
 */

export function trainKind(deps: { db: Database; storage: Storage; models: JobModels }): JobKind {
  const { db, storage, models } = deps;
  return {
    kind: TRAIN_KIND,
    input: TrainJobInput,
    output: 'model',
    timeoutSeconds: TRAINING_TRY_SECONDS,
    async call(job) {
      const trainer = models.trainer(job.provider);
      if (!trainer) {
        throw new AppError(
          'VALIDATION_FAILED',
          'This trainer is no longer available on this server. Your credits were refunded.',
        );
      }
      const input = trainInputOf(job);
      const loaded = await loadTrainingPhotos({ db, storage }, job.userId, input.setId);
      // A hosted vendor that already has the photos (a retry resuming its request) needs them no more:
      // failing here would refund while the vendor trains on, so the set may be gone by now.
      const resuming = job.providerRequestId !== null && job.provider !== 'local';
      if (!resuming && (!loaded || loaded.photos.length < TRAINING_MIN_PHOTOS)) {
        throw new ProviderError(
          `training set ${input.setId} is gone or too small`,
          'rejected',
          'The training set was deleted or lost photos before training could start.',
        );
      }
      const request = {
        providerModel: job.providerModel,
        images: loaded?.photos ?? [],
        triggerWord: input.triggerWord,
        subject: input.subject,
        steps: input.steps,
        destination: input.destination ?? undefined,
        baseProviderModel: input.baseProviderModel,
      };
      return {
        run: (ctx) => trainer.train(request, ctx),
        cancel: (requestId) => trainer.cancel(requestId, job.providerModel),
      };
    },
    async cancel(job, requestId) {
      const trainer = models.trainer(job.provider);
      return trainer ? trainer.cancel(requestId, job.providerModel) : false;
    },
    describe: () => ({
      prompt: null,
      negativePrompt: null,
      loraScale: null,
      promptStrength: null,
      recipe: null,
      sourceImageId: null,
    }),
    async ended(tx, job, { status, error }) {
      await markEnded(tx, trainInputOf(job).trainedModelId, status, error);
    },
  };
}
