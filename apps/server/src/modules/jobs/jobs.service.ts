import { StorageNotFoundError, type StoredObject } from '../../adapters/storage/storage.ts';
import type { JobPreviews } from './previews.ts';
import { randomUUID } from 'node:crypto';
import type { JobView } from '@lumina/contracts';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import type { JobRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import type { JobQueue } from '../../queue/queue.ts';
import type { CreditLedger } from '../credits/credit-ledger.service.ts';
import { readBalance } from '../credits/credits.repository.ts';
import { toJobView } from './jobs.mapper.ts';
import * as repo from './jobs.repository.ts';
import type { JobFollower, JobKinds } from './kinds.ts';
import type { ProgressBus } from './progress.bus.ts';

export const jobReference = (jobId: string) => `job:${jobId}`;

/** A paid job to start: its row (kind, model, input, images wanted), its price and the ledger reason. */
export type NewPaidJob = Omit<repo.NewJob, 'id'> & { userId: string; cost: number; reason: string };

/**
 * The life of a paid job outside the worker: start (charge, row and queue entry in one transaction),
 * progress, cancel, and ending it with a refund exactly once. Every kind goes through here.
 */
export class JobsService {
  constructor(
    private readonly deps: {
      db: Database;
      ledger: CreditLedger;
      queue: JobQueue;
      bus: ProgressBus;
      kinds: JobKinds;
      /** Told when a job ends, for purchases whose stages are jobs (products/shoot-pipeline.ts). */
      follower?: JobFollower;
      /** Running jobs' live previews. */
      previews?: JobPreviews;
    },
  ) {}

  /**
   * A running job's latest live preview, for its owner only: anyone else's job, a finished job and a
   * job without a preview read alike (404).
   */
  async preview(userId: string, jobId: string): Promise<StoredObject> {
    const job = await repo.findUserJob(this.deps.db, userId, jobId);
    if (!job || job.status !== 'running' || !job.previewAt || !this.deps.previews) {
      throw notFound('This preview');
    }
    try {
      return await this.deps.previews.read(job.id, job.previewAt);
    } catch (err) {
      if (err instanceof StorageNotFoundError) throw notFound('This preview');
      throw err;
    }
  }

  /**
   * The one way a job starts, whatever its kind: the charge, the job row and its queue entry commit in
   * one transaction (with `within`, e.g. the rows of its uploads, or a training's model row that
   * points at the job), then a worker is woken. A job with cost 0 (a stage of a paid purchase) writes
   * no ledger entry. With `opts.tx` it all happens in the caller's transaction instead: the caller
   * calls `wake()` after its commit (else the queue's next poll starts the job).
   */
  async enqueue(
    job: NewPaidJob,
    within?: (tx: DbOrTx, jobId: string) => Promise<void>,
    opts: { tx?: Tx } = {},
  ) {
    const { db, bus, kinds } = this.deps;
    const checked = kinds.get(job.kind).input.safeParse(job.input);
    if (!checked.success) throw new Error(`A ${job.kind} job's input is malformed: ${checked.error.message}`);
    if (!Number.isSafeInteger(job.cost) || job.cost < 0)
      throw new Error(`A job's cost must be whole and not negative`);
    const jobId = randomUUID();
    if (opts.tx) {
      const started = await this.insert(opts.tx, jobId, job, within);
      bus.changed(job.userId);
      return started;
    }
    const started = await db.transaction((tx) => this.insert(tx, jobId, job, within));
    // Committed: start it now rather than at this process's next poll.
    this.wake();
    bus.changed(job.userId);
    return started;
  }

  /** Starts queued jobs now rather than at the next poll (after a commit that queued some). */
  wake() {
    this.deps.queue.wake('job.run');
  }

  private async insert(
    tx: Tx,
    jobId: string,
    job: NewPaidJob,
    within: ((tx: DbOrTx, jobId: string) => Promise<void>) | undefined,
  ) {
    const { ledger, queue, kinds } = this.deps;
    const { reason, ...row } = job;
    const charge =
      job.cost > 0
        ? await ledger.spend(
            // The job id was made just above: no earlier charge to look for.
            { userId: job.userId, amount: job.cost, reference: jobReference(jobId), reason, fresh: true },
            tx,
          )
        : undefined;
    const inserted = await repo.insertJob(tx, { ...row, id: jobId });
    await within?.(tx, jobId);
    await queue.send('job.run', { jobId }, { tx, expireInSeconds: kinds.get(job.kind).timeoutSeconds });
    const balance = charge ? charge.entry.balanceAfter : await readBalance(tx, job.userId);
    return { job: inserted, cost: job.cost, balance };
  }

  /**
   * A verified provider webhook said a request finished: queue a sync of the job that made it (once,
   * however often the vendor redelivers). The webhook is only a hint; the sync re-reads the provider.
   */
  async providerFinished(provider: string, requestId: string) {
    const job = await repo.findByProviderRequest(this.deps.db, provider, requestId);
    if (job && (job.status === 'running' || job.status === 'queued')) {
      await this.deps.queue.send('job.sync', { jobId: job.id }, { singletonKey: `sync:${job.id}` });
    }
  }

  /** The user's active and recent jobs, with queue positions and result image ids. */
  async progress(userId: string): Promise<JobView[]> {
    const { db } = this.deps;
    const rows = await repo.listRecentJobs(db, userId);
    const imageIds = await repo.imageIdsByJob(
      db,
      rows.filter((r) => r.status === 'succeeded').map((r) => r.id),
    );
    return Promise.all(
      rows.map(async (row) => {
        const ahead = row.status === 'queued' ? await repo.queuedAhead(db, row) : undefined;
        // A running job's live preview as a signed file URL: an <img> sends no session token.
        const previewUrl =
          row.status === 'running' && row.previewAt && this.deps.previews
            ? await this.deps.previews.url(row.id, row.previewAt).catch(() => null)
            : null;
        return toJobView(row, imageIds.get(row.id) ?? [], ahead, previewUrl);
      }),
    );
  }

  version(userId: string): Promise<string> {
    return repo.jobsVersion(this.deps.db, userId);
  }

  /**
   * Cancels a job. A queued job (the provider never saw it) is refunded; a running one is asked to
   * stop at the provider and refunded only when the provider confirms it had not started.
   * A stage of a purchase (a photo shoot's training or generation) is refused: cancelling it would fail
   * and refund the whole purchase while the person keeps what was already delivered. Only deleting the
   * model a shoot trains (`opts.stage`, training.service.ts) may stop one, as nothing is kept then.
   */
  async cancel(userId: string, jobId: string, opts: { stage?: boolean } = {}): Promise<JobView> {
    const { db, kinds } = this.deps;
    const job = await repo.findUserJob(db, userId, jobId);
    if (!job) throw notFound('This job');
    if (job.purchaseId && !opts.stage) {
      const name = await repo.purchaseProductName(db, job.purchaseId);
      throw new AppError(
        'CONFLICT',
        `This job is part of your photo shoot${name ? ` "${name}"` : ''}; it cannot be cancelled on its own.`,
      );
    }
    if (!repo.ACTIVE_STATUSES.includes(job.status as 'queued')) {
      throw new AppError(
        'CONFLICT',
        `This job has already ${job.status === 'cancelled' ? 'been cancelled' : 'finished'}.`,
      );
    }
    let refund = job.status === 'queued';
    if (job.status === 'running' && job.providerRequestId) {
      refund = await kinds
        .get(job.kind)
        .cancel(job, job.providerRequestId)
        .catch(() => false);
    }
    const done = await this.finish(job, 'cancelled', { refund, error: null });
    if (!done) {
      // It finished while we were cancelling: report what actually happened.
      const current = await repo.findUserJob(db, userId, jobId);
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
    const { db, ledger, bus, kinds, follower } = this.deps;
    const row = await db.transaction(async (tx) => {
      const ended = await repo.transition(tx, job.id, repo.ACTIVE_STATUSES, {
        status,
        error: opts.error,
        finishedAt: new Date(),
        queuePosition: null,
        // A job that cost nothing (a purchase's stage: the purchase is refunded as a whole) refunds nothing.
        refundedAt: opts.refund ? repo.NOW_IF_PAID : null,
      });
      if (ended && opts.refund) await ledger.refund(jobReference(job.id), tx);
      if (ended) {
        await kinds.get(ended.kind).ended?.(tx, ended, { status, error: opts.error });
        await follower?.ended(tx, ended, { status, error: opts.error });
      }
      return ended;
    });
    if (row) {
      await this.deps.previews?.discard(row.id).catch(() => undefined);
      bus.changed(row.userId);
    }
    return row;
  }
}
