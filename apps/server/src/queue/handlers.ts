import type { Container } from '../container.ts';
import { findJob } from '../modules/jobs/jobs.repository.ts';
import type { JobContext, JobHandlers } from './workers.ts';

type JobRef = { jobId: string };

/** The handler of every job type. Modules add theirs here as they add job types to the registry. */
export function createJobHandlers(container: Container): JobHandlers {
  const { jobs, analytics, examples, products, referralRewards } = container.services;
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
  const run = ({ jobId }: JobRef, ctx: JobContext) => reporting((id) => jobs.worker.run(id, ctx))(jobId);
  const sync = ({ jobId }: JobRef) => reporting((id) => jobs.worker.syncFromProvider(id))(jobId);
  // Reached only when every try failed or stalled (a worker died mid-job): fail it and refund, once.
  const failed = ({ jobId }: JobRef) => reporting((id) => jobs.worker.abandon(id))(jobId);
  return {
    'system.echo': async ({ message }) => ({ echoed: message }),
    'job.run': run,
    'job.sync': sync,
    'job.failed': failed,
    'generation.run': run,
    'generation.sync': sync,
    'generation.failed': failed,
    'examples.seed': () => examples.run(),
    'purchase.refund': ({ purchaseId }) => products.refunds.run(purchaseId),
    'purchase.advance': ({ purchaseId }) => products.pipeline.advance(purchaseId),
    'purchase.abandoned': ({ purchaseId }) => products.pipeline.abandon(purchaseId),
    'purchase.refund.failed': ({ purchaseId }, ctx) => products.refunds.gaveUp(purchaseId, ctx.log),
    'referral.settle': ({ referralId }) => referralRewards.settle(referralId),
  };
}
