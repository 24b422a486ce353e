import { randomUUID } from 'node:crypto';
import type { Storage } from '../../adapters/storage/index.ts';
import {
  ProviderError,
  type ProviderName,
  type ProgressUpdate,
  type RunContext,
  type TextToImageRequest,
} from '../../adapters/providers/text-to-image.ts';
import type { ToolResult } from '../../adapters/providers/image-tools.ts';
import type { Database } from '../../db/client.ts';
import type { JobRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { NonRetryableError, type JobContext } from '../../jobs/workers.ts';
import { deleteImageFiles, storeImageFiles, type StoredImageFiles } from '../images/image-files.ts';
import { insertImages } from '../images/images.repository.ts';
import type { StoredVideo, ToolJobs } from '../tools/tool-jobs.ts';
import * as repo from './generation.repository.ts';
import type { GenerationRecipe, GenerationService, ModelResolver } from './generation.service.ts';
import type { ProgressBus } from './progress.bus.ts';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** The provider request for a job, from the recipe stored when it was created. */
function requestFor(job: JobRow): TextToImageRequest {
  const recipe = job.input as unknown as GenerationRecipe;
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
/** How often a running job looks for a cancel made elsewhere (another process, the API). */
const CANCEL_CHECK_MS = 1000;

export interface GenerationWorkerDeps {
  db: Database;
  storage: Storage;
  models: ModelResolver;
  service: GenerationService;
  bus: ProgressBus;
  /** The public webhook URL for a provider, when webhooks are configured. */
  webhookUrl?: (provider: string) => string | undefined;
  /** Image-tool jobs (edit, upscale, animate…) run through the same pipeline. */
  tools?: ToolJobs;
}

/** How one job calls its provider, whatever its kind. */
type Execute = (ctx: RunContext) => Promise<ToolResult>;

/**
 * Runs one generation job: provider → stored originals and thumbnails → image rows with the recipe →
 * job succeeded, exactly once. Redelivery is safe: a finished job is skipped, and a job whose provider
 * request was already submitted resumes it instead of paying twice.
 */
export class GenerationWorker {
  constructor(private readonly deps: GenerationWorkerDeps) {}

  async run(jobId: string, ctx: JobContext) {
    const { db, bus } = this.deps;
    const job = await repo.findJob(db, jobId);
    if (!job || TERMINAL.has(job.status)) return { skipped: job?.status ?? 'missing' };

    let execute: Execute;
    try {
      ({ execute } = await this.executorFor(job));
    } catch (err) {
      if (!(err instanceof AppError) && !(err instanceof ProviderError)) throw err;
      const reason =
        err instanceof AppError ? err.userMessage : `${err.userMessage} Your credits were refunded.`;
      await this.deps.service.finish(job, 'failed', { refund: true, error: reason });
      throw new NonRetryableError(reason);
    }

    const running = await repo.transition(db, job.id, repo.ACTIVE_STATUSES, {
      status: 'running',
      startedAt: job.startedAt ?? new Date(),
      attempts: job.attempts + 1,
      percent: job.percent ?? 0,
    });
    if (!running) return { skipped: 'ended before start' };
    bus.changed(job.userId);

    const abort = new AbortController();
    const cancelWatch = setInterval(() => {
      repo
        .findJob(db, job.id)
        .then((current) => {
          if (current && current.status !== 'running') abort.abort();
        })
        .catch(() => undefined);
    }, CANCEL_CHECK_MS);
    const startedAt = Date.now();

    try {
      const result = await execute({
        signal: abort.signal,
        resumeRequestId: job.providerRequestId ?? undefined,
        webhookUrl: this.deps.webhookUrl?.(job.provider),
        onSubmitted: async (requestId) => {
          await repo.updateProgress(db, job.id, { providerRequestId: requestId });
        },
        onProgress: (update) => this.progress(job, update),
      });
      return await this.complete(job, result, Date.now() - startedAt);
    } catch (err) {
      return await this.failed(job, err, ctx);
    } finally {
      clearInterval(cancelWatch);
    }
  }

  /**
   * After a verified provider webhook: fetch the finished request's result from the provider (the
   * truth, not the webhook body) and complete the job through the same path as the polling worker,
   * so whichever gets there first wins and the other changes nothing.
   */
  async syncFromProvider(jobId: string) {
    const job = await repo.findJob(this.deps.db, jobId);
    if (!job || job.status !== 'running' || !job.providerRequestId)
      return { skipped: job?.status ?? 'missing' };
    const { execute, cancel } = await this.executorFor(job);
    // A sync only reads the recorded request. If that request turns out to have failed, the adapter
    // would submit a fresh one (right for a retried job, wrong here: nobody would track or pay
    // attention to it); so stop at once, cancel it, and leave retrying to the job's own worker.
    const stop = new AbortController();
    let fresh: string | undefined;
    let result: ToolResult;
    try {
      result = await execute({
        signal: stop.signal,
        resumeRequestId: job.providerRequestId,
        onSubmitted: (requestId) => {
          fresh = requestId;
          stop.abort();
        },
        onProgress: () => undefined,
      });
    } catch (err) {
      if (!fresh) throw err;
      await cancel(fresh).catch(() => undefined);
      return { skipped: 'provider request ended; left to the job worker' };
    }
    const duration = job.startedAt ? Date.now() - job.startedAt.getTime() : null;
    return this.complete(job, result, duration);
  }

  /** The provider call for a job (text-to-image from its recipe, or an image tool with its sources) and its cancel. */
  private async executorFor(
    job: JobRow,
  ): Promise<{ execute: Execute; cancel: (requestId: string) => Promise<boolean> }> {
    if (job.kind === 'generate') {
      const { provider } = this.deps.models.get(job.modelId);
      const request = requestFor(job);
      return {
        execute: async (ctx) => ({ kind: 'images', ...(await provider.run(request, ctx)) }),
        cancel: (requestId) => provider.cancel(requestId, job.providerModel),
      };
    }
    const tools = this.deps.tools;
    if (!tools) throw new AppError('VALIDATION_FAILED', 'Image tools are not enabled on this server.');
    const { provider } = tools.resolve(job);
    const request = await tools.request(job);
    return {
      execute: (ctx) => provider.run(request, ctx),
      cancel: (requestId) => provider.cancel(requestId, job.providerModel),
    };
  }

  private async progress(job: JobRow, update: ProgressUpdate) {
    const changed = await repo.updateProgress(this.deps.db, job.id, {
      providerStatus: update.status,
      queuePosition: update.status === 'queued' ? (update.queuePosition ?? null) : null,
      percent: update.percent ?? null,
      message: update.message ?? null,
    });
    if (changed) this.deps.bus.changed(job.userId);
  }

  private async complete(job: JobRow, result: ToolResult, durationMs: number | null) {
    if (result.kind === 'video') return this.completeVideo(job, result.video.bytes, result.requestId);
    const { db, storage } = this.deps;
    const fields = this.imageFields(job);
    // Files first (slow, outside any transaction), then one transaction flips the job and adds the rows.
    const stored: Array<{ id: string; files: StoredImageFiles }> = [];
    try {
      for (const image of result.images) {
        const id = randomUUID();
        stored.push({ id, files: await storeImageFiles(storage, job.userId, id, image.bytes) });
      }
      const finished = await db.transaction(async (tx) => {
        const done = await this.succeed(tx, job, result.requestId);
        if (!done) return undefined;
        await insertImages(
          tx,
          stored.map(({ id, files }, i) => ({
            id,
            userId: job.userId,
            jobId: job.id,
            kind: job.kind,
            ...files,
            ...fields,
            modelId: job.modelId,
            provider: job.provider,
            seed: (result.seed + i) % 2 ** 32,
            durationMs,
          })),
        );
        return done;
      });
      if (!finished) {
        // Cancelled or finished elsewhere meanwhile: keep nothing of this run.
        await Promise.all(stored.map(({ files }) => deleteImageFiles(storage, files)));
        return { skipped: 'ended elsewhere' };
      }
      this.deps.bus.changed(job.userId);
      return { images: stored.map((s) => s.id) };
    } catch (err) {
      await Promise.all(stored.map(({ files }) => deleteImageFiles(storage, files).catch(() => undefined)));
      throw err;
    }
  }

  /** An animate result: the MP4 and its poster stored, the video row added as the job succeeds. */
  private async completeVideo(job: JobRow, bytes: Buffer, requestId: string) {
    const tools = this.deps.tools!;
    let stored: StoredVideo | undefined;
    try {
      stored = await tools.storeVideo(job, bytes);
      const video = stored;
      const finished = await this.deps.db.transaction(async (tx) => {
        const done = await this.succeed(tx, job, requestId);
        if (done) await tools.insertVideo(tx, job, video);
        return done;
      });
      if (!finished) {
        await tools.deleteVideoFiles(video);
        return { skipped: 'ended elsewhere' };
      }
      this.deps.bus.changed(job.userId);
      return { video: video.id };
    } catch (err) {
      if (stored) await tools.deleteVideoFiles(stored).catch(() => undefined);
      throw err;
    }
  }

  private succeed(tx: Parameters<Parameters<Database['transaction']>[0]>[0], job: JobRow, requestId: string) {
    return repo.transition(tx, job.id, ['running'], {
      status: 'succeeded',
      finishedAt: new Date(),
      percent: 100,
      queuePosition: null,
      providerRequestId: requestId,
      message: null,
    });
  }

  /** What each output image records about how it was made. */
  private imageFields(job: JobRow) {
    if (job.kind !== 'generate' && this.deps.tools) return this.deps.tools.imageFields(job);
    const recipe = job.input as unknown as GenerationRecipe;
    return {
      prompt: recipe.prompt,
      negativePrompt: recipe.negativePrompt,
      loraScale: recipe.loraScale,
      promptStrength: recipe.promptStrength,
      recipe: null,
    };
  }

  private async failed(job: JobRow, err: unknown, ctx: JobContext): Promise<never> {
    const current = await repo.findJob(this.deps.db, job.id);
    if (current && current.status !== 'running') {
      // Cancelled (or otherwise ended) while the provider worked: nothing more to do.
      throw new NonRetryableError(`job ${current.status}`);
    }
    const transient = !(err instanceof ProviderError) || err.kind === 'transient';
    if (transient && !ctx.isLastAttempt) {
      await repo.updateProgress(this.deps.db, job.id, {
        message: 'Retrying after a temporary problem…',
        percent: null,
      });
      this.deps.bus.changed(job.userId);
      throw err;
    }
    // A refusal keeps the provider's own words; a temporary problem that outlived every retry says so
    // (its "try again in a moment" text would be wrong by now).
    const tries = ctx.retryCount + 1;
    const cause =
      err instanceof ProviderError && !transient
        ? err.userMessage
        : `The image provider kept failing and could not finish this job after ${tries} ${tries === 1 ? 'try' : 'tries'}.`;
    const reason = `${cause} Your credits were refunded.`;
    ctx.log.warn({ err, jobId: job.id }, 'generation failed');
    await this.deps.service.finish(job, 'failed', { refund: true, error: reason });
    throw new NonRetryableError(reason);
  }

  /**
   * The dead letter: every try failed or stalled (workers died mid-job). Fails and refunds the job once,
   * and asks the provider to stop a request nobody is waiting for any more.
   */
  async abandon(jobId: string) {
    const ended = await this.deps.service.finish({ id: jobId }, 'failed', {
      refund: true,
      error: 'The image service did not finish this job after several tries. Your credits were refunded.',
    });
    if (ended?.providerRequestId) {
      const adapter =
        ended.kind === 'generate'
          ? this.deps.models.adapter(ended.provider as ProviderName)
          : this.deps.tools?.adapter(ended.provider);
      await adapter?.cancel(ended.providerRequestId, ended.providerModel).catch(() => undefined);
    }
    return { ended: Boolean(ended) };
  }
}
