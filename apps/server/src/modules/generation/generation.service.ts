import { randomInt, randomUUID } from 'node:crypto';
import type { AspectRatio, JobView } from '@lumina/contracts';
import { SEED_MAX } from '@lumina/contracts';
import { sizeFor } from '../../adapters/providers/catalogue.ts';
import type { ProviderRegistry } from '../../adapters/providers/registry.ts';
import type { TextToImageProvider } from '../../adapters/providers/text-to-image.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import type { JobRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { CreditLedger } from '../credits/credit-ledger.service.ts';
import * as repo from './generation.repository.ts';
import { toJobView } from './generation.mapper.ts';
import type { ProgressBus } from './progress.bus.ts';

/** Resolves a model id to its catalogue entry and provider adapter (throws a readable AppError). */
export type ModelResolver = Pick<ProviderRegistry, 'get' | 'adapter'>;

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

export const jobReference = (jobId: string) => `job:${jobId}`;

/**
 * Starting, listing and cancelling generation jobs. Pricing happens here, on the server; the charge,
 * the job row and the queued job commit in one transaction.
 */
export class GenerationService {
  constructor(
    private readonly db: Database,
    private readonly ledger: CreditLedger,
    private readonly queue: JobQueue,
    private readonly models: ModelResolver,
    private readonly bus: ProgressBus,
    /** The image-tool adapters, to cancel a running tool job at its provider. */
    private readonly toolAdapters?: (
      provider: string,
    ) => { cancel: TextToImageProvider['cancel'] } | undefined,
  ) {}

  async create(userId: string, input: PromptInput) {
    const { model } = this.models.get(input.model);
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
    };
    return this.enqueue({
      userId,
      kind: 'generate',
      modelId: model.id,
      provider: model.provider,
      providerModel: model.providerModel,
      input: { ...recipe },
      numImages: input.numImages,
      cost: model.creditCost * input.numImages,
      reason: 'generation',
    });
  }

  /**
   * The one way a job starts, whatever its kind: the charge, the job row and its queue entry commit in
   * one transaction (with `within`, e.g. the rows of its uploads), then a worker is woken.
   */
  async enqueue(
    job: Omit<repo.NewJob, 'id'> & { userId: string; cost: number; reason: string },
    within?: (tx: DbOrTx) => Promise<void>,
  ) {
    const { reason, ...row } = job;
    const jobId = randomUUID();
    const { inserted, balance } = await this.db.transaction(async (tx) => {
      await within?.(tx);
      const charge = await this.ledger.spend(
        // The job id was made just above: no earlier charge to look for.
        { userId: job.userId, amount: job.cost, reference: jobReference(jobId), reason, fresh: true },
        tx,
      );
      const inserted = await repo.insertJob(tx, { ...row, id: jobId });
      await this.queue.send('generation.run', { jobId }, { tx });
      return { inserted, balance: charge.entry.balanceAfter };
    });
    // Committed: start it now rather than at this process's next poll.
    this.queue.wake('generation.run');
    this.bus.changed(job.userId);
    return { job: inserted, cost: job.cost, balance };
  }

  /** The user's active and recent jobs, with queue positions and result image ids. */
  async progress(userId: string): Promise<JobView[]> {
    const rows = await repo.listRecentJobs(this.db, userId);
    const imageIds = await repo.imageIdsByJob(
      this.db,
      rows.filter((r) => r.status === 'succeeded').map((r) => r.id),
    );
    return Promise.all(
      rows.map(async (row) => {
        const ahead = row.status === 'queued' ? await repo.queuedAhead(this.db, row) : undefined;
        return toJobView(row, imageIds.get(row.id) ?? [], ahead);
      }),
    );
  }

  version(userId: string): Promise<string> {
    return repo.jobsVersion(this.db, userId);
  }

  /**
   * Cancels a job. A queued job (the provider never saw it) is refunded; a running one is asked to
   * stop at the provider and refunded only when the provider confirms it had not started.
   */
  async cancel(userId: string, jobId: string): Promise<JobView> {
    const job = await repo.findUserJob(this.db, userId, jobId);
    if (!job) throw notFound('This job');
    if (!repo.ACTIVE_STATUSES.includes(job.status as 'queued')) {
      throw new AppError(
        'CONFLICT',
        `This job has already ${job.status === 'cancelled' ? 'been cancelled' : 'finished'}.`,
      );
    }
    let refund = job.status === 'queued';
    if (job.status === 'running' && job.providerRequestId) {
      const provider =
        job.kind === 'generate' ? this.tryResolve(job).provider : this.toolAdapters?.(job.provider);
      refund = (await provider?.cancel(job.providerRequestId, job.providerModel).catch(() => false)) ?? false;
    }
    const done = await this.finish(job, 'cancelled', { refund, error: null });
    if (!done) {
      // It finished while we were cancelling: report what actually happened.
      const current = await repo.findUserJob(this.db, userId, jobId);
      throw new AppError(
        'CONFLICT',
        `This job has already ${current?.status === 'succeeded' ? 'finished' : 'stopped'}.`,
      );
    }
    return toJobView(done, []);
  }

  /**
   * Ends an active job as failed or cancelled, refunding in the same transaction when asked. Returns
   * undefined when something else ended it first (so a refund can never happen twice).
   */
  async finish(
    job: Pick<JobRow, 'id'>,
    status: 'failed' | 'cancelled',
    opts: { refund: boolean; error: string | null },
  ): Promise<JobRow | undefined> {
    const row = await this.db.transaction(async (tx) => {
      const ended = await repo.transition(tx, job.id, repo.ACTIVE_STATUSES, {
        status,
        error: opts.error,
        finishedAt: new Date(),
        queuePosition: null,
        refundedAt: opts.refund ? new Date() : null,
      });
      if (ended && opts.refund) await this.ledger.refund(jobReference(job.id), tx);
      return ended;
    });
    if (row) this.bus.changed(row.userId);
    return row;
  }

  private tryResolve(job: JobRow) {
    try {
      return this.models.get(job.modelId);
    } catch {
      return { provider: undefined };
    }
  }
}
