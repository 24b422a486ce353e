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
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
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

/** A checked training, ready to start: whose, which set, trainer, steps and base model. */
export interface TrainingPlan {
  userId: string;
  setId: string;
  entry: TrainModel;
  steps: number;
  set: NonNullable<Awaited<ReturnType<typeof repo.setSummary>>>;
  base: NonNullable<ReturnType<ModelCatalogue['sharedTextToImage']>>;
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
    const { settings } = this.deps;
    if (only === 'replicate' && !settings.replicateConfigured) {
      throw new AppError(
        'VALIDATION_FAILED',
        'Training on Replicate is not available: this server has no Replicate API token configured. Use the default trainer instead.',
      );
    }
    const plan = await this.plan(this.deps.db, userId, {
      setId: body.set_id,
      trainer: body.base_model,
      steps: body.steps,
      only,
    });
    const cost = creditsFor({ capability: 'train', creditCost: plan.entry.creditCost, steps: plan.steps });
    const { row, ...started } = await this.start(plan, {
      name: body.name,
      triggerWord: body.trigger_word || generateTriggerWord(),
      subject: body.subject,
      cost,
      reason: 'training',
    });
    return { ...started, model: await this.view(row) };
  }

  /**
   * The checks of a training, before anything is charged: the trainer (`trainer` names a `train`
   * entry; without it, the default vendor's first available one), its steps (its default when absent)
   * and the set (the user's, with 5 to 30 photos). Read through `db` (a caller's transaction, say).
   */
  async plan(
    db: DbOrTx,
    userId: string,
    want: { setId: string; trainer?: string; steps?: number; only?: ProviderName },
  ): Promise<TrainingPlan> {
    const { catalogue, settings } = this.deps;
    const entry = this.trainerEntry(want.only, want.trainer);
    if (entry.provider === 'replicate' && !settings.replicateOwner) {
      // Checked before charging: Replicate writes a trained model into an account of ours.
      throw new AppError(
        'VALIDATION_FAILED',
        'Training on Replicate is not set up on this server (no Replicate account to keep trained models in). Choose another trainer.',
      );
    }
    const steps = want.steps ?? entry.steps.default;
    if (steps < entry.steps.min || steps > entry.steps.max) {
      throw new AppError(
        'VALIDATION_FAILED',
        entry.steps.min === entry.steps.max
          ? `${entry.displayName} always trains for ${entry.steps.min} steps; leave steps empty or send ${entry.steps.min}.`
          : `${entry.displayName} trains for ${entry.steps.min} to ${entry.steps.max} steps; ${steps} is outside that.`,
      );
    }
    const set = await repo.setSummary(db, userId, want.setId);
    if (!set) throw notFound('This training set');
    if (set.photoCount < TRAINING_MIN_PHOTOS || set.photoCount > TRAINING_MAX_PHOTOS) {
      throw new AppError(
        'VALIDATION_FAILED',
        `This set has ${set.photoCount} ${set.photoCount === 1 ? 'photo' : 'photos'}; training needs ${TRAINING_MIN_PHOTOS} to ${TRAINING_MAX_PHOTOS}.`,
      );
    }
    return {
      userId,
      setId: want.setId,
      entry,
      steps,
      set,
      base: catalogue.sharedTextToImage(entry.baseModelId)!,
    };
  }

  /**
   * Starts a planned training: its job (at `cost`, which may be 0 when a purchase paid for it) and the
   * model's row that points at it, in one transaction, or in `opts.tx` (the caller wakes the queue).
   */
  async start(
    plan: TrainingPlan,
    what: {
      name: string;
      triggerWord: string;
      subject: TrainRequest['subject'];
      cost: number;
      reason: string;
      purchaseId?: string;
    },
    opts: { tx?: Tx } = {},
  ) {
    const { jobs, settings } = this.deps;
    const { entry, base, set, steps, userId } = plan;
    const modelId = randomUUID();
    const input: TrainJobInput = {
      setId: plan.setId,
      triggerWord: what.triggerWord,
      subject: what.subject,
      steps,
      trainerModelId: entry.id,
      baseModelId: base.id,
      baseProviderModel: base.providerModel,
      trainedModelId: modelId,
      destination:
        entry.provider === 'replicate' && settings.replicateOwner
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
        cost: what.cost,
        reason: what.reason,
        purchaseId: what.purchaseId ?? null,
      },
      async (tx, jobId) => {
        row = await repo.insertTrainedModel(tx, {
          id: modelId,
          userId,
          name: what.name,
          triggerWord: what.triggerWord,
          subject: what.subject,
          setId: plan.setId,
          imageCount: set.photoCount,
          trainerModelId: entry.id,
          baseModelId: base.id,
          provider: entry.provider,
          steps,
          jobId,
          coverKey: set.coverKey,
          cost: what.cost,
        });
      },
      opts,
    );
    return { ...started, row: row! };
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
      // A photo shoot's training may be stopped this way: the model it would deliver is going.
      await jobs.cancel(userId, row.jobId, { stage: true }).catch((err: unknown) => {
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
