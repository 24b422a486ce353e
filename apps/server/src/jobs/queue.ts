import PgBoss from 'pg-boss';
import type { SqlExecutor, Tx } from '../db/client.ts';
import { transactionExecutor } from '../db/client.ts';
import { jobNames, jobs, type JobName, type JobPayload } from './registry.ts';

export interface QueueOptions {
  executor: SqlExecutor;
  pollIntervalSeconds: number;
  /** Per-job-type overrides of how long a running job may take before it counts as stalled. */
  expireInSeconds?: Partial<Record<JobName, number>>;
}

/**
 * The job queue: pg-boss on our own database connection (PGlite or the pg pool), so jobs are as
 * durable as the rows they are about and can be enqueued in the same transaction.
 */
export class JobQueue {
  private constructor(
    readonly boss: PgBoss,
    readonly pollIntervalSeconds: number,
    private readonly expireOverrides: Partial<Record<JobName, number>>,
  ) {}

  static async start(options: QueueOptions): Promise<JobQueue> {
    const boss = new PgBoss({
      db: options.executor,
      // Maintenance (expiring stalled jobs, archiving) runs in every process; it is cheap and idempotent.
      supervise: true,
      schedule: false,
      migrate: true,
    });
    boss.on('error', (err) => console.error('queue error', err));
    await boss.start();
    for (const name of jobNames) await boss.createQueue(name);
    return new JobQueue(boss, options.pollIntervalSeconds, options.expireInSeconds ?? {});
  }

  /**
   * Validates and enqueues a job. With `tx` the job is inserted in that transaction, so it exists only
   * if the transaction commits.
   */
  async send<N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    opts: { tx?: Tx; singletonKey?: string } = {},
  ) {
    const data = jobs[name].schema.parse(payload);
    const id = await this.boss.send(name, data as object, {
      ...jobs[name].options,
      ...(this.expireOverrides[name] ? { expireInSeconds: this.expireOverrides[name] } : {}),
      ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
      ...(opts.tx ? { db: transactionExecutor(opts.tx) } : {}),
    });
    if (!id) throw new Error(`Job ${name} was not enqueued`);
    return id;
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
