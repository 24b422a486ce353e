import { setTimeout as sleep } from 'node:timers/promises';
import type { ProgressUpdate } from '../../adapters/providers/text-to-image.ts';
import { ProviderError } from '../../adapters/providers/text-to-image.ts';
import type { Database } from '../../db/client.ts';
import type { JobRow, VendorAttempt } from '../../db/schema/index.ts';
import { sentenceStart, vendorLabel, vendorTitle } from '../../adapters/providers/vendors.ts';
import type { ProviderName } from '../../adapters/providers/text-to-image.ts';
import { listed } from '../../words.ts';
import type { VendorRoute } from '../models/model-catalogue.ts';
import type { VendorBreaker } from '../vendors/vendor-breaker.ts';
import { AppError } from '../../errors.ts';
import { NonRetryableError, type JobContext } from '../../queue/workers.ts';
import * as repo from './jobs.repository.ts';
import type { JobsService } from './jobs.service.ts';
import type { JobFollower, JobKind, JobKinds, JobResult, ProviderCall } from './kinds.ts';
import type { OutputStores } from './outputs.ts';
import type { JobPreviews } from './previews.ts';
import type { ProgressBus } from './progress.bus.ts';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** What a failed job's message adds about its refund: nothing for a job that cost nothing (a purchase's stage). */
const refundNote = (job: Pick<JobRow, 'cost'>) => (job.cost > 0 ? ' Your credits were refunded.' : '');

/** How often a running job looks for a cancel made elsewhere (another process, the API). */
const CANCEL_CHECK_MS = 1000;
/** How long a run stopped as cancelled waits for the cancel that stopped it to end the job, and how often it looks. */
const CANCEL_SETTLE_MS = 5000;
const CANCEL_POLL_MS = 50;

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
  /** Where running jobs' live previews are kept. */
  previews?: JobPreviews;
  /** Each vendor's circuit breaker (modules/vendors); without it every vendor is always tried. */
  breaker?: Pick<VendorBreaker, 'allows' | 'failed' | 'succeeded'>;
  /** The time vendor attempts are stamped with (the container's clock). */
  now?: () => number;
}

/** Why a vendor's turn ended without a result, in words for people; undefined when the job must not move. */
function moveReason(err: unknown): Pick<VendorAttempt, 'outcome' | 'reason'> | undefined {
  if (err instanceof ProviderError) {
    if (err.kind === 'timeout') return { outcome: 'timeout', reason: 'did not answer in time' };
    if (err.kind === 'transient') return { outcome: 'failed', reason: 'had a temporary problem' };
    // A refusal would be refused elsewhere too (and is the person's to change); a cancel is theirs.
    return undefined;
  }
  return { outcome: 'failed', reason: 'could not be reached' };
}

/** The vendor's technical message, for the operator's list of failures (never shown to people). */
const technical = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Runs one paid job, whatever its kind: provider → stored outputs (images, a video, a model) → rows with how
 * they were made → job succeeded, exactly once. Redelivery is safe: a finished job is skipped, and a
 * job whose provider request was already submitted resumes it instead of paying twice.
 */
export class JobWorker {
  constructor(private readonly deps: JobWorkerDeps) {}

  async run(jobId: string, ctx: JobContext) {
    const { db, bus } = this.deps;
    const found = await repo.findJob(db, jobId);
    if (!found || TERMINAL.has(found.status)) return { skipped: found?.status ?? 'missing' };

    const kind = this.deps.kinds.get(found.kind);
    let job = found;
    if (!job.providerRequestId) {
      // A request already submitted is resumed where it is (its id belongs to that vendor); otherwise
      // the job starts at the first vendor, from its current one on, whose breaker lets it through.
      const picked = await this.pickVendor(kind, job);
      if (!picked) return { skipped: 'ended before start' };
      job = picked;
    }

    let call = await this.buildCall(kind, job);

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
      for (;;) {
        const current: JobRow = job;
        let result: JobResult;
        try {
          result = await call.run({
            signal: abort.signal,
            resumeRequestId: current.providerRequestId ?? undefined,
            webhookUrl: this.deps.webhookUrl?.(current.provider),
            onSubmitted: async (requestId) => {
              // Only while the job is still with this vendor: an id is never recorded against another.
              await repo.updateProgress(db, current.id, { providerRequestId: requestId }, current.provider);
            },
            onProgress: (update) => this.progress(current, update),
          });
        } catch (err) {
          const moved = await this.moveOn(kind, current, err);
          if (!moved) return await this.failed(current, err, ctx);
          // At once, in this same try: the next vendor, with no second charge (the cost is the job's).
          job = moved;
          call = await this.buildCall(kind, moved);
          continue;
        }
        await this.deps.breaker?.succeeded(current.provider);
        return await this.complete(current, result, Date.now() - startedAt);
      }
    } finally {
      clearInterval(cancelWatch);
    }
  }

  private stamp() {
    return new Date(this.deps.now?.() ?? Date.now()).toISOString();
  }

  /** The vendors that may run a job in failover order; always includes the one recorded on it. */
  private routes(kind: JobKind, job: JobRow): VendorRoute[] {
    const routes = kind.routes?.(job) ?? [];
    const recorded = { provider: job.provider as ProviderName, providerModel: job.providerModel };
    return routes.some((r) => r.provider === job.provider) ? routes : [recorded];
  }

  /** The job's provider call; a job that cannot run fails and is refunded (NonRetryableError). */
  private async buildCall(kind: JobKind, job: JobRow): Promise<ProviderCall> {
    try {
      return await kind.call(job);
    } catch (err) {
      if (!(err instanceof AppError) && !(err instanceof ProviderError)) throw err;
      const reason = err instanceof AppError ? err.userMessage : `${err.userMessage}${refundNote(job)}`;
      await this.deps.service.finish(job, 'failed', { refund: true, error: reason });
      throw new NonRetryableError(reason);
    }
  }

  /**
   * Before a job is handed to a vendor: skips vendors whose breaker is open (recording each skip), or
   * fails the job at once, refunded, when every vendor that could run it is open. Undefined when the
   * job ended meanwhile.
   */
  private async pickVendor(kind: JobKind, job: JobRow): Promise<JobRow | undefined> {
    const { breaker } = this.deps;
    if (!breaker) return job;
    const routes = this.routes(kind, job);
    const from = routes.findIndex((r) => r.provider === job.provider);
    const skipped: VendorAttempt[] = [];
    const route = await this.firstAllowed(routes.slice(from), skipped);
    if (route) {
      if (skipped.length === 0) return job;
      const moved = await repo.moveVendor(this.deps.db, job.id, route, skipped);
      if (moved) this.deps.bus.changed(job.userId);
      return moved;
    }
    const names = routes.slice(from).map((r) => vendorLabel(r.provider));
    const which = `${listed(names)} ${names.length === 1 ? 'is' : 'are'}`;
    const reason = `${sentenceStart(which)} failing right now, so this job was not started.${refundNote(job)} Please try again in a few minutes.`;
    await repo.recordAttempts(this.deps.db, job.id, skipped);
    await this.deps.service.finish(job, 'failed', { refund: true, error: reason });
    throw new NonRetryableError(reason);
  }

  /**
   * The first of `routes` whose breaker lets a job through (every one without a breaker), recording in
   * `skipped` each vendor passed over; undefined when every one is open.
   */
  private async firstAllowed(
    routes: VendorRoute[],
    skipped: VendorAttempt[],
  ): Promise<VendorRoute | undefined> {
    const { breaker } = this.deps;
    for (const route of routes) {
      if (!breaker || (await breaker.allows(route.provider))) return route;
      skipped.push({
        vendor: route.provider,
        providerModel: route.providerModel,
        outcome: 'skipped',
        reason: 'was skipped because it kept failing',
        at: this.stamp(),
      });
    }
    return undefined;
  }

  /**
   * After a vendor's turn ended in a temporary failure or a timeout: counts it on the vendor's breaker,
   * asks the vendor to drop the request, and hands the job to the next alternate whose breaker lets it
   * through (the job's record keeps why). Undefined when it must not or cannot move: a refusal, a
   * cancel, the job ended meanwhile, or no vendor left (then the usual retries and refund apply).
   */
  private async moveOn(kind: JobKind, job: JobRow, err: unknown): Promise<JobRow | undefined> {
    const why = moveReason(err);
    if (!why) return undefined;
    const current = await repo.findJob(this.deps.db, job.id);
    if (!current || current.status !== 'running') return undefined;
    const { breaker } = this.deps;
    await breaker?.failed(job.provider, technical(err), job.id);
    const routes = this.routes(kind, job);
    const index = routes.findIndex((r) => r.provider === job.provider);
    const attempts: VendorAttempt[] = [
      { vendor: job.provider, providerModel: job.providerModel, ...why, at: this.stamp() },
    ];
    const next = await this.firstAllowed(routes.slice(index + 1), attempts);
    if (next) {
      // The old vendor may still be working on it (a timeout): ask it to stop, before its id is forgotten.
      if (current.providerRequestId) {
        await kind.cancel(current, current.providerRequestId).catch(() => undefined);
      }
      const moved = await repo.moveVendor(this.deps.db, job.id, next, attempts, {
        percent: 0,
        message: `${vendorTitle(job.provider)} ${why.reason}; moving to ${vendorLabel(next.provider)}…`,
      });
      if (moved) {
        await this.deps.previews?.discard(job.id).catch(() => undefined);
        this.deps.bus.changed(job.userId);
      }
      return moved;
    }
    // Nowhere to go: the record still keeps this turn (and any vendor skipped after it).
    await repo.recordAttempts(this.deps.db, job.id, attempts);
    return undefined;
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
    // A live preview (throttled) is stored for the job view; a failed write only loses that frame.
    const previewAt =
      update.preview && (await this.deps.previews?.save(job.id, update.preview).catch(() => undefined));
    // Only while the job is still with the vendor that reported it: a late report of a vendor the job
    // has moved away from changes nothing.
    const changed = await repo.updateProgress(
      this.deps.db,
      job.id,
      {
        providerStatus: update.status,
        queuePosition: update.status === 'queued' ? (update.queuePosition ?? null) : null,
        percent: update.percent ?? null,
        message: update.message ?? null,
        ...(previewAt ? { previewAt } : {}),
      },
      job.provider,
    );
    if (changed) this.deps.bus.changed(job.userId);
  }

  private async complete(job: JobRow, result: JobResult, durationMs: number | null) {
    const { db, kinds, outputs } = this.deps;
    const kind = kinds.get(job.kind);
    const output = outputs[kind.output];
    // Files first (slow, outside any transaction), then one transaction flips the job and adds the rows.
    const stored = await output.store(job, result);
    // The run is over: its live preview goes before the job reads as finished, so nobody who sees the
    // job succeeded (or ended elsewhere) finds a frame left behind.
    await this.deps.previews?.discard(job.id).catch(() => undefined);
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
      vendorAttempts: repo.appendAttempts([
        {
          vendor: job.provider,
          providerModel: job.providerModel,
          outcome: 'succeeded',
          reason: null,
          at: this.stamp(),
        },
      ]),
    });
  }

  private async failed(job: JobRow, err: unknown, ctx: JobContext): Promise<never> {
    const current = await this.endedByCancel(job, err);
    if (current && current.status !== 'running') {
      // Cancelled (or otherwise ended) while the provider worked: nothing more to do.
      throw new NonRetryableError(`job ${current.status}`);
    }
    const transient = !(err instanceof ProviderError) || err.kind === 'transient';
    if (transient && !ctx.isLastAttempt) {
      // The failed try's last frame is not what the next try will make: no preview until it sends one.
      await repo.updateProgress(this.deps.db, job.id, {
        message: 'Retrying after a temporary problem…',
        percent: null,
        previewAt: null,
      });
      await this.deps.previews?.discard(job.id).catch(() => undefined);
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
   * The job as it stands after its run failed. A run stopped as cancelled while the job still reads
   * running is most likely a person's cancel in flight: `JobsService.cancel` stops the vendor first
   * (which ends this run at once) and ends the job a moment later, with the refund the vendor's answer
   * decides. So wait briefly for that, rather than fail the job under the cancel (which would then
   * answer "already stopped"); a vendor that cancelled on its own is failed as before once the wait ends.
   */
  private async endedByCancel(job: JobRow, err: unknown): Promise<JobRow | undefined> {
    const cancelled = err instanceof ProviderError && err.kind === 'cancelled';
    const deadline = Date.now() + (cancelled ? CANCEL_SETTLE_MS : 0);
    for (;;) {
      const current = await repo.findJob(this.deps.db, job.id);
      if (!current || current.status !== 'running' || Date.now() >= deadline) return current;
      await sleep(CANCEL_POLL_MS);
    }
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
