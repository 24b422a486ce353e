import PgBoss from 'pg-boss';
import type { SqlExecutor, Tx } from '../db/client.ts';
import { transactionExecutor } from '../db/client.ts';
import { jobNames, jobs, type JobDefinition, type JobName, type JobPayload } from './registry.ts';

export interface QueueOptions {
  executor: SqlExecutor;
  pollIntervalSeconds: number;
  /** How often pg-boss maintenance looks for stalled (expired) jobs. Default 120 s (pg-boss's own). */
  maintenanceIntervalSeconds?: number;
  /** Per-job-type overrides of how long a running job may take before it counts as stalled. */
  expireInSeconds?: Partial<Record<JobName, number>>;
  /** Per-job-type overrides of the registry's send options (retries and their delay, from config). */
  overrides?: Partial<Record<JobName, Partial<JobDefinition['options']>>>;
}

type Batch = Array<PgBoss.Job<object>>;

/**
 * The job queue: pg-boss on our own database connection (PGlite or the pg pool), so jobs are as
 * durable as the rows they are about and can be enqueued in the same transaction.
 *
 * Latency: pg-boss workers poll (0.5 s at best). Jobs sent from this process wake one of this process's
 * idle workers at once (`wake`), and a worker that just finished a job fetches again without waiting,
 * so a busy queue drains back to back; polling remains the path for jobs sent by other processes.
 */
export class JobQueue {
  private readonly workerIds = new Map<JobName, string[]>();
  private readonly nextWorker = new Map<JobName, number>();

  private constructor(
    readonly boss: PgBoss,
    readonly pollIntervalSeconds: number,
    private readonly overrides: Partial<Record<JobName, Partial<JobDefinition['options']>>>,
  ) {}

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
    boss.on('error', (err) => console.error('queue error', err));
    await boss.start();
    for (const name of jobNames) await boss.createQueue(name);
    const overrides: Partial<Record<JobName, Partial<JobDefinition['options']>>> = {
      ...options.overrides,
    };
    for (const [name, seconds] of Object.entries(options.expireInSeconds ?? {}) as Array<[JobName, number]>) {
      overrides[name] = { ...overrides[name], expireInSeconds: seconds };
    }
    return new JobQueue(boss, options.pollIntervalSeconds, overrides);
  }

  /** The send options of a job type: the registry's, with configured overrides applied. */
  optionsOf(name: JobName): JobDefinition['options'] {
    return { ...jobs[name].options, ...this.overrides[name] };
  }

  /**
   * Validates and enqueues a job. With `tx` the job is inserted in that transaction, so it exists only
   * if the transaction commits: call `wake(name)` after the commit for an immediate start.
   */
  async send<N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    opts: { tx?: Tx; singletonKey?: string } = {},
  ) {
    const data = jobs[name].schema.parse(payload);
    const id = await this.boss.send(name, data as object, {
      ...this.optionsOf(name),
      ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
      ...(opts.tx ? { db: transactionExecutor(opts.tx) } : {}),
    });
    if (!id) throw new Error(`Job ${name} was not enqueued`);
    if (!opts.tx) this.wake(name);
    return id;
  }

  /**
   * Binds one pg-boss worker (one job per fetch) to a queue. After a job it fetches again at once
   * instead of sleeping a poll interval, so throughput is not capped at one job per interval.
   */
  async work(name: JobName, handler: (job: Batch[number]) => Promise<unknown>): Promise<string> {
    let id = '';
    id = await this.boss.work(
      name,
      { batchSize: 1, pollingIntervalSeconds: this.pollIntervalSeconds, includeMetadata: true },
      async ([job]: Batch) => {
        if (!job) return undefined;
        try {
          return await handler(job);
        } finally {
          this.boss.notifyWorker(id);
        }
      },
    );
    this.workerIds.set(name, [...(this.workerIds.get(name) ?? []), id]);
    return id;
  }

  /** Wakes one of this process's workers for `name` (round robin) so a just-sent job starts now. */
  wake(name: JobName): void {
    const ids = this.workerIds.get(name);
    if (!ids?.length) return;
    const i = (this.nextWorker.get(name) ?? 0) % ids.length;
    this.nextWorker.set(name, i + 1);
    this.boss.notifyWorker(ids[i]!);
  }

  getJob(name: JobName, id: string) {
    return this.boss.getJobById(name, id);
  }

  async ping(): Promise<boolean> {
    await this.boss.getQueues();
    return true;
  }

  /** Stops fetching, waits for running jobs up to `timeoutMs`, then releases the queue. */
  async stop(timeoutMs: number): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
  }
}
