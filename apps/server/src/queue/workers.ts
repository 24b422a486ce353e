import type { Job } from 'pg-boss';
import type { Logger } from '../logger.ts';
import type { JobQueue } from './queue.ts';
import { queueJobNames, queueJobTypes, type QueueJobName, type QueueJobPayload } from './registry.ts';

export interface JobContext {
  id: string;
  /** 0 on the first try. */
  retryCount: number;
  /** True when a thrown error will not be retried again: the handler should fail the work for good. */
  isLastAttempt: boolean;
  log: Logger;
}

export type JobHandler<N extends QueueJobName> = (
  payload: QueueJobPayload<N>,
  ctx: JobContext,
) => Promise<unknown>;
export type JobHandlers = { [N in QueueJobName]: JobHandler<N> };

/**
 * Thrown by a handler that has already recorded a permanent failure (marked its row failed,
 * refunded): the job completes instead of being retried.
 */
export class NonRetryableError extends Error {
  override name = 'NonRetryableError';
}

type JobWithMeta = Job<object> & { retryCount: number; retryLimit: number };

/** Binds exactly one handler per job type; refuses to start when one is missing or unknown. */
export async function startWorkers(
  queue: JobQueue,
  handlers: JobHandlers,
  options: { concurrency: number; log: Logger },
): Promise<void> {
  const missing = queueJobNames.filter((name) => typeof handlers[name] !== 'function');
  const unknown = Object.keys(handlers).filter((name) => !(name in queueJobTypes));
  if (missing.length || unknown.length) {
    throw new Error(
      `Job handlers do not match the registry (missing: ${missing.join(', ') || 'none'}; unknown: ${unknown.join(', ') || 'none'})`,
    );
  }
  for (const name of queueJobNames) {
    const run = runner(name, handlers[name] as JobHandler<QueueJobName>, options.log);
    // One job per fetch; parallelism comes from several workers on the same queue. A former name
    // only drains leftovers, so one worker is enough.
    const workers = 'drainOnly' in queueJobTypes[name] ? 1 : options.concurrency;
    for (let i = 0; i < workers; i++) {
      await queue.work(name, (job) => run(job as JobWithMeta));
    }
  }
}

function runner(name: QueueJobName, handler: JobHandler<QueueJobName>, baseLog: Logger) {
  const schema = queueJobTypes[name].schema;
  return async (job: JobWithMeta) => {
    const log = baseLog.child({ job: name, jobId: job.id, attempt: job.retryCount });
    const payload = schema.safeParse(job.data);
    if (!payload.success) {
      // A malformed payload will never succeed: complete it rather than retry it forever.
      log.error({ issues: payload.error.issues }, 'job payload is invalid; dropping it');
      return { dropped: 'invalid payload' };
    }
    const ctx: JobContext = {
      id: job.id,
      retryCount: job.retryCount,
      isLastAttempt: job.retryCount >= job.retryLimit,
      log,
    };
    try {
      return await handler(payload.data, ctx);
    } catch (err) {
      if (err instanceof NonRetryableError) {
        log.warn({ err }, 'job failed permanently');
        return { failed: err.message };
      }
      log.warn({ err }, 'job attempt failed');
      throw err;
    }
  };
}
