import { randomUUID } from 'node:crypto';
import {
  creditsFor,
  TRAINING_MAX_PHOTOS,
  TRAINING_MIN_PHOTOS,
  type TrainedModelView,
  type TrainRequest,
} from '@lumina/contracts';
import type { TrainModel } from '../../adapters/providers/catalogue.ts';
import type { ProviderName } from '../../adapters/providers/text-to-image.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import type { TrainedModelRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import type { JobsService } from '../jobs/jobs.service.ts';
import type { ModelCatalogue } from '../models/model-catalogue.ts';
import { TRAIN_KIND, type TrainJobInput } from './train.kind.ts';
import { coverUrl, modelPrefix } from './trained-files.ts';
import { generateTriggerWord } from './trigger-word.ts';
import { toTrainedModelView } from './training.mapper.ts';
import * as repo from './training.repository.ts';

export interface TrainingSettings {
  /** The operator's default trainer (TRAINER): which vendor POST /api/train_model trains on. */
  trainer: ProviderName;
  /** Whether a Replicate API token is configured (POST /api/train_replicate needs one). */
  replicateConfigured: boolean;
  /** The Replicate account trained models are written to (`<owner>/lumina-<model id>`). */
  replicateOwner?: string;
}

/**
 * Training your own model: the checks (set, trainer, steps), the price, and the paid job with the
 * model's row in one transaction; then the person's models (list, rename, delete). The job itself is
 * the pipeline's (train.kind.ts, model-output.ts).
 */
export class TrainingService {
  constructor(
    private readonly deps: {
      db: Database;
      storage: Storage;
      catalogue: Pick<ModelCatalogue, 'list' | 'get' | 'sharedTextToImage'>;
      jobs: Pick<JobsService, 'enqueue' | 'cancel'>;
      settings: TrainingSettings;
    },
  ) {}

  /**
   * Starts a training. `base_model` names any available trainer; without it, the operator's default
   * vendor (TRAINER) picks its first available one. `only` keeps to one vendor (`/api/train_replicate`).
   */
  async train(userId: string, body: TrainRequest, only?: ProviderName) {
    const { db, catalogue, jobs, settings } = this.deps;
    if (only === 'replicate' && !settings.replicateConfigured) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Training on Replicate is not available: this server has no Replicate API token configured. Use the default trainer instead.',
      );
    }
    const entry = this.trainerEntry(only, body.base_model);
    const vendor = entry.provider;
    if (vendor === 'replicate' && !settings.replicateOwner) {
      // Checked before charging: Replicate writes a trained model into an account of ours.
      throw new AppError(
        'VALIDATION_FAILED',
        'Training on Replicate is not set up on this server (no Replicate account to keep trained models in). Choose another trainer.',
      );
    }
    const steps = body.steps ?? entry.steps.default;
    if (steps < entry.steps.min || steps > entry.steps.max) {
      throw new AppError(
        'VALIDATION_FAILED',
        entry.steps.min === entry.steps.max
          ? `${entry.displayName} always trains for ${entry.steps.min} steps; leave steps empty or send ${entry.steps.min}.`
          : `${entry.displayName} trains for ${entry.steps.min} to ${entry.steps.max} steps; ${steps} is outside that.`,
      );
    }
    const set = await repo.setSummary(db, userId, body.set_id);
    if (!set) throw notFound('This training set');
    if (set.photoCount < TRAINING_MIN_PHOTOS || set.photoCount > TRAINING_MAX_PHOTOS) {
      throw new AppError(
        'VALIDATION_FAILED',
        `This set has ${set.photoCount} ${set.photoCount === 1 ? 'photo' : 'photos'}; training needs ${TRAINING_MIN_PHOTOS} to ${TRAINING_MAX_PHOTOS}.`,
      );
    }
    const base = catalogue.sharedTextToImage(entry.baseModelId)!;
    const modelId = randomUUID();
    const triggerWord = body.trigger_word || generateTriggerWord();
    const cost = creditsFor({ capability: 'train', creditCost: entry.creditCost, steps });
    const input: TrainJobInput = {
      setId: body.set_id,
      triggerWord,
      subject: body.subject,
      steps,
      trainerModelId: entry.id,
      baseModelId: base.id,
      baseProviderModel: base.providerModel,
      trainedModelId: modelId,
      destination:
        vendor === 'replicate' && settings.replicateOwner
          ? `${settings.replicateOwner}/lumina-${modelId}`
          : null,
    };
    let row: TrainedModelRow | undefined;
    const started = await jobs.enqueue(
      {
        userId,
        kind: TRAIN_KIND,
        modelId: entry.id,
        provider: entry.provider,
        providerModel: entry.providerModel,
        input: { ...input },
        // A training makes no images (the public counter counts images).
        numImages: 0,
        cost,
        reason: 'training',
      },
      async (tx, jobId) => {
        row = await repo.insertTrainedModel(tx, {
          id: modelId,
          userId,
          name: body.name,
          triggerWord,
          subject: body.subject,
          setId: body.set_id,
          imageCount: set.photoCount,
          trainerModelId: entry.id,
          baseModelId: base.id,
          provider: entry.provider,
          steps,
          jobId,
          coverKey: set.coverKey,
          cost,
        });
      },
    );
    return { ...started, model: await this.view(row!) };
  }

  async list(userId: string): Promise<TrainedModelView[]> {
    const rows = await repo.listUserModels(this.deps.db, userId);
    return Promise.all(rows.map((row) => this.view(row)));
  }

  async rename(userId: string, id: string, name: string): Promise<TrainedModelView> {
    const row = await repo.renameUserModel(this.deps.db, userId, id, name);
    if (!row) throw notFound('This model');
    return this.view(row);
  }

  /**
   * Deletes a model and its weights; a training one is cancelled first (refunded when the trainer had
   * not started). Images made with it stay: they keep its id as their model.
   */
  async delete(userId: string, id: string) {
    const { db, storage, jobs } = this.deps;
    const row = await repo.findUserModel(db, userId, id);
    if (!row) throw notFound('This model');
    if (row.status === 'training' && row.jobId) {
      // Already ended meanwhile (CONFLICT): nothing left to cancel.
      await jobs.cancel(userId, row.jobId).catch((err: unknown) => {
        if (!(err instanceof AppError && err.code === 'CONFLICT')) throw err;
      });
    }
    await repo.deleteUserModel(db, userId, id);
    await storage.deletePrefix(modelPrefix(userId, id));
  }

  /** The `train` entry named by `baseModel` (of `only`'s vendor when given), or the default vendor's first available one. */
  private trainerEntry(only: ProviderName | undefined, baseModel: string | undefined): TrainModel {
    const { catalogue, settings } = this.deps;
    const all = catalogue.list('train');
    const entries = only ? all.filter((m) => m.provider === only) : all;
    const defaults = entries.filter((m) => m.provider === (only ?? settings.trainer));
    const entry = baseModel
      ? entries.find((m) => m.id === baseModel)
      : (defaults.find((m) => m.available) ?? defaults[0]);
    if (!entry) {
      throw new AppError(
        'VALIDATION_FAILED',
        entries.length
          ? `Unknown trainer "${baseModel ?? ''}". Choose one of: ${entries.map((m) => m.id).join(', ')}.`
          : 'This server offers no trainer for this kind of training.',
      );
    }
    // Throws the catalogue's own words when its vendor is not available here.
    return catalogue.get('train', entry.id).model;
  }

  private async view(row: TrainedModelRow) {
    return toTrainedModelView(row, await coverUrl(this.deps.storage, row.coverKey));
  }
}
