import PgBoss from 'pg-boss';
import type { SqlExecutor, Tx } from '../db/client.ts';
import { transactionExecutor } from '../db/client.ts';
import type { Logger } from '../logger.ts';
import {
  queueJobNames,
  queueJobTypes,
  type QueueJobType,
  type QueueJobName,
  type QueueJobPayload,
} from './registry.ts';
import type { Listening } from '../db/listener.ts';
import { listenForWakes, newWakeId, WAKE_CHANNEL, wakePayload } from './wake.ts';

export interface QueueOptions {
  executor: SqlExecutor;
  pollIntervalSeconds: number;
  /** How often pg-boss maintenance looks for stalled (expired) jobs. Default 120 s (pg-boss's own). */
  maintenanceIntervalSeconds?: number;
  /** Per-job-type overrides of how long a running job may take before it counts as stalled. */
  expireInSeconds?: Partial<Record<QueueJobName, number>>;
  /** Per-job-type overrides of the registry's send options (retries and their delay, from config). */
  overrides?: Partial<Record<QueueJobName, Partial<QueueJobType['options']>>>;
  /** A running job's heartbeat, in seconds; silent for STALE_BEATS beats, it is abandoned. */
  heartbeatSeconds: number;
  /**
   * The PostgreSQL URL on which sent jobs wake workers in every process (LISTEN/NOTIFY). Unset with
   * embedded PGlite, where everything is one process and the in-process wake is enough.
   */
  wakeUrl?: string;
  log: Logger;
}

/** Where a job's data keeps how long one try may run (see `restoreDeadlines`). */
const TRY_DEADLINE_KEY = 'tryDeadlineSeconds';

/** A running job that missed this many heartbeats counts as abandoned (its worker died). */
export const STALE_BEATS = 4;

/**
 * How often each pg-boss worker polls on its own. The looking is done by one probe per process every
 * `pollIntervalSeconds` (see `probe`); this is only a backstop in case the probe itself goes wrong.
 */
const BACKSTOP_POLL_SECONDS = 60;

type Batch = Array<PgBoss.Job<object>>;
/** A job fetched with its metadata: how long one try may run. */
type JobWithExpiry = PgBoss.Job<object> & { expireInSeconds: number };

/**
 * The job queue: pg-boss on our own database connection (PGlite or the pg pool), so jobs are as
 * durable as the rows they are about and can be enqueued in the same transaction.
 *
 * Latency: pg-boss workers poll (0.5 s at best). A sent job wakes an idle worker at once: in this
 * process directly (`wake`), in other processes through a PostgreSQL NOTIFY sent with the job (see
 * wake.ts). A worker that just finished a job fetches again without waiting, so a busy queue drains
 * back to back. Polling remains the fallback, for jobs nobody sends (retries when their delay is over,
 * dead letters, jobs of a crashed worker): one statement per process and interval asks which queues
 * have jobs ready and wakes as many idle workers as there are jobs, instead of every idle worker of
 * every queue fetching on its own (16 fetches per interval with 4 job types at concurrency 4).
 *
 * Dead workers: a running job beats every `heartbeatSeconds` by pushing its pg-boss expiry forward
 * (`expire_in` = time run so far + STALE_BEATS beats). A worker that dies stops beating, and within
 * STALE_BEATS beats the job is past its expiry; every process runs pg-boss's own expiry once a beat,
 * which retries the job or, out of retries, sends it to its dead letter (refund). The job type's
 * `expireInSeconds` stays the hard limit of one try in a live worker (pg-boss's in-process timeout).
 */
export class JobQueue {
  private readonly workerIds = new Map<QueueJobName, string[]>();
  private readonly nextWorker = new Map<QueueJobName, number>();
  /** Workers running a job now; a wake goes to one that is not. */
  private readonly busy = new Set<string>();
  private readonly reaper: NodeJS.Timeout;
  private listener: Promise<Listening> | undefined;
  private readonly wakeId = newWakeId();
  private poller: NodeJS.Timeout | undefined;
  private probing = false;
  private probeFailing = false;

  private constructor(
    readonly boss: PgBoss,
    private readonly executor: SqlExecutor,
    readonly pollIntervalSeconds: number,
    private readonly overrides: Partial<Record<QueueJobName, Partial<QueueJobType['options']>>>,
    private readonly options: QueueOptions,
  ) {
    // Any process may find abandoned jobs (an API process too, when every worker died); pg-boss's
    // expiry is one locked statement, so concurrent reapers never retry a job twice.
    this.reaper = setInterval(() => {
      boss
        .expire()
        .then(() => this.restoreDeadlines())
        .catch((err: unknown) => options.log.warn({ err }, 'looking for abandoned jobs failed'));
    }, options.heartbeatSeconds * 1000);
    this.reaper.unref();
  }

  static async start(options: QueueOptions): Promise<JobQueue> {
    const boss = new PgBoss({
      db: options.executor,
      // Maintenance (expiring stalled jobs, archiving) runs in every process; it is cheap and idempotent.
      supervise: true,
      schedule: false,
      migrate: true,
      ...(options.maintenanceIntervalSeconds
        ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds }
        : {}),
    });
    boss.on('error', (err) => options.log.error({ err }, 'queue error'));
    await boss.start();
    for (const name of queueJobNames) await boss.createQueue(name);
    const overrides: Partial<Record<QueueJobName, Partial<QueueJobType['options']>>> = {
      ...options.overrides,
    };
    for (const [name, seconds] of Object.entries(options.expireInSeconds ?? {}) as Array<
      [QueueJobName, number]
    >) {
      overrides[name] = { ...overrides[name], expireInSeconds: seconds };
    }
    return new JobQueue(boss, options.executor, options.pollIntervalSeconds, overrides, options);
  }

  /** The send options of a job type: the registry's, with configured overrides applied. */
  optionsOf(name: QueueJobName): QueueJobType['options'] {
    return { ...queueJobTypes[name].options, ...this.overrides[name] };
  }

  /**
   * Validates and enqueues a job. With `tx` the job is inserted in that transaction, so it exists only
   * if the transaction commits: call `wake(name)` after the commit for an immediate start.
   */
  async send<N extends QueueJobName>(
    name: N,
    payload: QueueJobPayload<N>,
    opts: { tx?: Tx; singletonKey?: string; expireInSeconds?: number; startAfter?: Date } = {},
  ) {
    const data = queueJobTypes[name].schema.parse(payload) as object;
    const db = opts.tx ? transactionExecutor(opts.tx) : this.executor;
    const deadline = opts.expireInSeconds ?? this.optionsOf(name).expireInSeconds;
    // The try's deadline travels with the job, for `restoreDeadlines` (handlers' schemas drop it).
    const id = await this.boss.send(
      name,
      { ...data, [TRY_DEADLINE_KEY]: deadline },
      {
        ...this.optionsOf(name),
        ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
        ...(opts.expireInSeconds ? { expireInSeconds: opts.expireInSeconds } : {}),
        ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
        ...(opts.tx ? { db } : {}),
      },
    );
    if (!id) throw new Error(`Job ${name} was not enqueued`);
    // Other processes' workers: in a transaction, the notification goes out when it commits.
    if (this.options.wakeUrl)
      await db.executeSql('SELECT pg_notify($1, $2)', [WAKE_CHANNEL, wakePayload(name, this.wakeId)]);
    if (!opts.tx) this.wake(name);
    return id;
  }

  /**
   * Gives jobs that pg-boss retried because their worker died (their expiry passed) their full try
   * deadline back: pg-boss copies `expire_in` into the retry and times the next try by it, and a dead
   * worker's last beat left only a few seconds there (a training resumed after a crash would be cut
   * off). Runs after each expiry pass here; one made by pg-boss's own maintenance is mended by the next
   * pass, before its retry delay is over.
   */
  private async restoreDeadlines(): Promise<void> {
    // pg-boss 10's own job table and columns (schema `pgboss`): check this on a pg-boss upgrade.
    await this.executor.executeSql(
      `UPDATE pgboss.job SET expire_in = make_interval(secs => (data->>'${TRY_DEADLINE_KEY}')::float8)
       WHERE name = ANY($1::text[]) AND state = 'retry' AND data ->> '${TRY_DEADLINE_KEY}' IS NOT NULL
         AND expire_in <> make_interval(secs => (data->>'${TRY_DEADLINE_KEY}')::float8)`,
      [queueJobNames],
    );
  }

  /**
   * Binds one pg-boss worker (one job per fetch) to a queue. After a job it fetches again at once
   * instead of sleeping a poll interval, so throughput is not capped at one job per interval.
   */
  async work(name: QueueJobName, handler: (job: Batch[number]) => Promise<unknown>): Promise<string> {
    if (this.options.wakeUrl && !this.listener) {
      this.listener = listenForWakes(
        this.options.wakeUrl,
        this.wakeId,
        (woken) => {
          if ((queueJobNames as string[]).includes(woken)) this.wake(woken as QueueJobName);
        },
        this.options.log,
      );
      await this.listener;
    }
    if (!this.poller) {
      this.poller = setInterval(() => void this.probe(), this.pollIntervalSeconds * 1000);
      this.poller.unref();
    }
    let id = '';
    id = await this.boss.work(
      name,
      {
        batchSize: 1,
        pollingIntervalSeconds: Math.max(BACKSTOP_POLL_SECONDS, this.pollIntervalSeconds),
        includeMetadata: true,
      },
      async ([job]: Batch) => {
        if (!job) return undefined;
        this.busy.add(id);
        const stopBeating = this.heartbeat(job as JobWithExpiry);
        try {
          return await handler(job);
        } finally {
          await stopBeating();
          this.busy.delete(id);
          this.boss.notifyWorker(id);
        }
      },
    );
    this.workerIds.set(name, [...(this.workerIds.get(name) ?? []), id]);
    return id;
  }

  /**
   * The idle workers' poll, once per process: which queues with idle workers here have jobs ready to
   * start (at most as many as there are idle workers), and wake that many. Workers that are running a
   * job need no poll: they fetch again as soon as it ends.
   */
  private async probe(): Promise<void> {
    if (this.probing) return;
    const idle = new Map<QueueJobName, number>();
    for (const [name, ids] of this.workerIds) {
      const n = ids.filter((id) => !this.busy.has(id)).length;
      if (n > 0) idle.set(name, n);
    }
    if (idle.size === 0) return;
    this.probing = true;
    try {
      // pg-boss 10's job table (schema `pgboss`; its index job_i5 serves this): check on an upgrade.
      const { rows } = await this.executor.executeSql(
        `SELECT q.name, (SELECT count(*) FROM (
             SELECT 1 FROM pgboss.job j
             WHERE j.name = q.name AND j.state < 'active' AND j.start_after < now() LIMIT $2) ready)::int AS ready
         FROM unnest($1::text[]) AS q(name)`,
        [[...idle.keys()], Math.max(...idle.values())],
      );
      this.probeFailing = false;
      for (const { name, ready } of rows as Array<{ name: QueueJobName; ready: number }>) {
        for (let i = 0; i < Math.min(ready, idle.get(name) ?? 0); i++) this.wake(name);
      }
    } catch (err) {
      // Once per outage, not every interval; the workers' own backstop poll still runs.
      if (!this.probeFailing) this.options.log.warn({ err }, 'looking for queued jobs failed');
      this.probeFailing = true;
    } finally {
      this.probing = false;
    }
  }

  /**
   * Keeps a running job's pg-boss expiry STALE_BEATS beats ahead of now, for as long as its try may
   * last (the job type's expireInSeconds, enforced in-process by pg-boss). Returns the stop, which gives
   * the job its full deadline back: pg-boss copies `expire_in` into the retry of a failed try and times
   * that try by it, so a retry would otherwise get the few seconds the beats left (a training retried
   * after a failed first try would get seconds instead of hours). A job whose worker died is retried
   * with what its last beat set.
   */
  private heartbeat(job: JobWithExpiry): () => Promise<void> {
    const staleSeconds = this.options.heartbeatSeconds * STALE_BEATS;
    const deadlineSeconds = Number(job.expireInSeconds);
    const until = Date.now() + deadlineSeconds * 1000;
    const setExpiry = (sql: string, seconds: number) =>
      // pg-boss 10's own job table and columns (schema `pgboss`): check this on a pg-boss upgrade.
      this.executor
        .executeSql(
          `UPDATE pgboss.job SET expire_in = ${sql} WHERE name = $1 AND id = $2 AND state = 'active'`,
          [job.name, job.id, seconds],
        )
        .catch((err: unknown) => this.options.log.warn({ err, jobId: job.id }, 'job heartbeat failed'));
    // The last beat sent, so the stop's update lands after it rather than being overwritten by it.
    let lastBeat: Promise<unknown> = Promise.resolve();
    const beat = () => {
      if (Date.now() > until) return void clearInterval(timer);
      lastBeat = setExpiry('(now() - started_on) + make_interval(secs => $3)', staleSeconds);
    };
    const timer = setInterval(beat, this.options.heartbeatSeconds * 1000);
    // A job still running when shutdown gives up on it must not keep the process alive.
    timer.unref();
    // The first beat at once: until then the job expires only after its full time limit.
    beat();
    return async () => {
      clearInterval(timer);
      await lastBeat;
      await setExpiry('make_interval(secs => $3)', deadlineSeconds);
    };
  }

  /** Wakes an idle worker of this process for `name` so a just-sent job starts now. Busy workers
   * fetch again as soon as they finish, so when all are busy there is nobody to wake. */
  wake(name: QueueJobName): void {
    const ids = this.workerIds.get(name);
    if (!ids?.length) return;
    const start = this.nextWorker.get(name) ?? 0;
    for (let k = 0; k < ids.length; k++) {
      const i = (start + k) % ids.length;
      if (this.busy.has(ids[i]!)) continue;
      this.nextWorker.set(name, (i + 1) % ids.length);
      this.boss.notifyWorker(ids[i]!);
      return;
    }
  }

  getJob(name: QueueJobName, id: string) {
    return this.boss.getJobById(name, id);
  }

  async ping(): Promise<boolean> {
    await this.boss.getQueues();
    return true;
  }

  /** Stops fetching, waits for running jobs up to `timeoutMs`, then releases the queue. */
  async stop(timeoutMs: number): Promise<void> {
    clearInterval(this.reaper);
    clearInterval(this.poller);
    const listener = this.listener;
    this.listener = undefined;
    await (await listener?.catch(() => undefined))?.close();
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
  }
}
