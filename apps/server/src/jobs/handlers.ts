import type { Container } from '../container.ts';
import { findJob } from '../modules/generation/generation.repository.ts';
import type { JobHandlers } from './workers.ts';

/** The handler of every job type. Modules add theirs here as they add job types to the registry. */
export function createJobHandlers(container: Container): JobHandlers {
  const { generation, analytics, examples } = container.services;
  const db = container.database.db;
  /**
   * After a handler ran (or threw), a job that ended succeeded or failed is reported to analytics.
   * The event's uuid is derived from the job and outcome, so a redelivery reporting it again counts once.
   */
  const reporting =
    <T>(run: (jobId: string) => Promise<T>) =>
    async (jobId: string): Promise<T> => {
      try {
        return await run(jobId);
      } finally {
        const job = await findJob(db, jobId).catch(() => undefined);
        if (job) analytics.jobEnded(job);
      }
    };
  return {
    'system.echo': async ({ message }) => ({ echoed: message }),
    'generation.run': ({ jobId }, ctx) => reporting((id) => generation.worker.run(id, ctx))(jobId),
    'generation.sync': ({ jobId }) => reporting((id) => generation.worker.syncFromProvider(id))(jobId),
    // Reached only when every try failed or stalled (a worker died mid-job): fail it and refund, once.
    'generation.failed': ({ jobId }) => reporting((id) => generation.worker.abandon(id))(jobId),
    'examples.seed': () => examples.run(),
  };
}
