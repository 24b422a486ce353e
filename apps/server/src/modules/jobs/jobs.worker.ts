import type { ProgressUpdate } from '../../adapters/providers/text-to-image.ts';
import { ProviderError } from '../../adapters/providers/text-to-image.ts';
import type { Database } from '../../db/client.ts';
import type { JobRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { NonRetryableError, type JobContext } from '../../queue/workers.ts';
import * as repo from './jobs.repository.ts';
import type { JobsService } from './jobs.service.ts';
import type { JobFollower, JobKinds, JobResult, ProviderCall } from './kinds.ts';
import type { OutputStores } from './outputs.ts';
import type { ProgressBus } from './progress.bus.ts';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** What a failed job's message adds about its refund: nothing for a job that cost nothing (a purchase's stage). */
const refundNote = (job: Pick<JobRow, 'cost'>) => (job.cost > 0 ? ' Your credits were refunded.' : '');

/** How often a running job looks for a cancel made elsewhere (another process, the API). */
const CANCEL_CHECK_MS = 1000;

export interface JobWorkerDeps {
  db: Database;
  service: Pick<JobsService, 'finish'>;
  bus: ProgressBus;
  kinds: JobKinds;
  outputs: OutputStores;
  /** Told when a job succeeds, in the transaction that records it (a purchase's next stage). */
  follower?: JobFollower;
  /** The public webhook URL for a provider, when webhooks are configured. */
  webhookUrl?: (provider: string) => string | undefined;
}

/**
 * Runs one paid job, whatever its kind: provider → stored outputs (images, a video, a model) → rows with how
 * they were made → job succeeded, exactly once. Redelivery is safe: a finished job is skipped, and a
 * job whose provider request was already submitted resumes it instead of paying twice.
 */
export class JobWorker {
  constructor(private readonly deps: JobWorkerDeps) {}

  async run(jobId: string, ctx: JobContext) {
    const { db, bus } = this.deps;
    const job = await repo.findJob(db, jobId);
    if (!job || TERMINAL.has(job.status)) return { skipped: job?.status ?? 'missing' };

    let call: ProviderCall;
    try {
      call = await this.deps.kinds.get(job.kind).call(job);
    } catch (err) {
      if (!(err instanceof AppError) && !(err instanceof ProviderError)) throw err;
      const reason = err instanceof AppError ? err.userMessage : `${err.userMessage}${refundNote(job)}`;
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
      const result = await call.run({
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
    const call = await this.deps.kinds.get(job.kind).call(job);
    // A sync only reads the recorded request. If that request turns out to have failed, the adapter
    // would submit a fresh one (right for a retried job, wrong here: nobody would track or pay
    // attention to it); so stop at once, cancel it, and leave retrying to the job's own worker.
    const stop = new AbortController();
    let fresh: string | undefined;
    let result: JobResult;
    try {
      result = await call.run({
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
      await call.cancel(fresh).catch(() => undefined);
      return { skipped: 'provider request ended; left to the job worker' };
    }
    const duration = job.startedAt ? Date.now() - job.startedAt.getTime() : null;
    return this.complete(job, result, duration);
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

  private async complete(job: JobRow, result: JobResult, durationMs: number | null) {
    const { db, kinds, outputs } = this.deps;
    const kind = kinds.get(job.kind);
    const output = outputs[kind.output];
    // Files first (slow, outside any transaction), then one transaction flips the job and adds the rows.
    const stored = await output.store(job, result);
    try {
      const finished = await db.transaction(async (tx) => {
        const done = await this.succeed(tx, job, result.requestId);
        if (done) {
          await output.insert(tx, job, stored, {
            fields: kind.describe(job),
            // A training has no seed.
            seed: 'seed' in result ? result.seed : 0,
            durationMs,
          });
          await this.deps.follower?.succeeded(tx, done);
        }
        return done;
      });
      if (!finished) {
        // Cancelled or finished elsewhere meanwhile: keep nothing of this run.
        await output.discard(stored);
        return { skipped: 'ended elsewhere' };
      }
      this.deps.bus.changed(job.userId);
      return output.summary(stored);
    } catch (err) {
      await output.discard(stored).catch(() => undefined);
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
        : `The provider kept failing and could not finish this job after ${tries} ${tries === 1 ? 'try' : 'tries'}.`;
    const reason = `${cause}${refundNote(job)}`;
    ctx.log.warn({ err, jobId: job.id }, 'job failed');
    await this.deps.service.finish(job, 'failed', { refund: true, error: reason });
    throw new NonRetryableError(reason);
  }

  /**
   * The dead letter: every try failed or stalled (workers died mid-job). Fails and refunds the job once,
   * and asks the provider to stop a request nobody is waiting for any more.
   */
  async abandon(jobId: string) {
    const job = await repo.findJob(this.deps.db, jobId);
    if (!job) return { ended: false };
    const ended = await this.deps.service.finish(job, 'failed', {
      refund: true,
      error: `The provider did not finish this job after several tries.${refundNote(job)}`,
    });
    if (ended?.providerRequestId) {
      await this.deps.kinds
        .get(ended.kind)
        .cancel(ended, ended.providerRequestId)
        .catch(() => undefined);
    }
    return { ended: Boolean(ended) };
  }
}
