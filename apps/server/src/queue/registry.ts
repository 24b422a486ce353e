import { z } from 'zod';

export interface QueueJobType {
  schema: z.ZodType;
  /** pg-boss send options: retries, backoff and how long a running job may take before it is retried. */
  options: {
    retryLimit: number;
    retryDelay?: number;
    retryBackoff?: boolean;
    expireInSeconds: number;
    /** Where a job goes when it has failed for good, including a worker dying mid-job on the last try. */
    deadLetter?: string;
  };
  /** A former name kept only to drain what an older version queued: one worker, nothing sends to it. */
  drainOnly?: boolean;
}

const jobRun = (deadLetter: string) => ({
  schema: z.object({ jobId: z.uuid() }),
  options: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 900, deadLetter },
});
const jobSync = {
  schema: z.object({ jobId: z.uuid() }),
  options: { retryLimit: 3, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 },
};
const jobFailed = {
  schema: z.object({ jobId: z.uuid() }),
  options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
};

/**
 * Every queue job type: its name, payload schema and retry policy, in one place. The worker refuses to
 * start unless each has exactly one handler.
 */
export const queueJobTypes = {
  // A demonstration job that proves the queue end to end (enqueue, restart, complete). Used by
  // `/api/ready`'s tests and the restart test; it has no side effects beyond its output.
  'system.echo': {
    schema: z.object({ message: z.string().max(1000) }),
    options: { retryLimit: 2, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  },
  // One paid job (modules/jobs), whatever its kind. Transient provider errors retry with backoff; a job
  // still running after expireInSeconds (a worker that died) is retried too. After the last try it lands
  // in job.failed, whose handler marks the job failed and refunds it, so nothing is lost. Retries, their
  // delay and the expiry come from config (GENERATION_*), applied in container.ts.
  'job.run': jobRun('job.failed'),
  // A verified provider webhook said a request finished: fetch the result and complete the job (the
  // polling worker may get there first; the job still finishes once).
  'job.sync': jobSync,
  'job.failed': jobFailed,
  // The same three under their names before the queue was renamed (generation.*), bound for one release
  // so entries queued by the previous version still run; see docs/decisions.md. Nothing sends to them.
  'generation.run': { ...jobRun('generation.failed'), drainOnly: true },
  'generation.sync': { ...jobSync, drainOnly: true },
  'generation.failed': { ...jobFailed, drainOnly: true },
  // A job of a purchase ended (sent in the transaction that ended it, modules/products/shoot-pipeline.ts):
  // move the purchase to its next stage, deliver it, or fail and refund it. Idempotent: a stage starts
  // once however often this runs, so a redelivery or a second message changes nothing. After the last
  // try it lands in purchase.abandoned, so a purchase cannot stay training or generating forever.
  'purchase.advance': {
    schema: z.object({ purchaseId: z.uuid() }),
    options: {
      retryLimit: 10,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 300,
      deadLetter: 'purchase.abandoned',
    },
  },
  // purchase.advance's dead letter: fails a purchase still training or generating and refunds it once
  // (PurchaseRefunds), as job.failed does for a job; a purchase that moved on is left alone.
  'purchase.abandoned': {
    schema: z.object({ purchaseId: z.uuid() }),
    options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  },
  // Renders and publishes the example set on a fresh install (modules/examples). Idempotent: a retry
  // or a second copy (several processes starting at once) skips what exists. ~1 s of CPU per image.
  'examples.seed': {
    schema: z.object({}),
    options: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 1800 },
  },
  // A failed photo shoot paid through Stripe (modules/products/purchase-refunds.ts): refunds its payment
  // with an idempotency key derived from the purchase, so retries refund once.
  'purchase.refund': {
    schema: z.object({ purchaseId: z.uuid() }),
    options: {
      retryLimit: 10,
      retryDelay: 30,
      retryBackoff: true,
      expireInSeconds: 120,
      deadLetter: 'purchase.refund.failed',
    },
  },
  // purchase.refund's dead letter: Stripe refused every try. Logged as an error for the operator to
  // refund by hand; the purchase stays `failed`, saying its payment "is being refunded".
  'purchase.refund.failed': {
    schema: z.object({ purchaseId: z.uuid() }),
    options: { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  },
  // A referral's settling period is over (modules/referrals, sent with startAfter in the paying
  // transaction): its pending rewards become spendable, once. A refund, dispute or shared card that
  // already ended it leaves nothing to do; a copy arriving early finds it not yet due and changes nothing.
  'referral.settle': {
    schema: z.object({ referralId: z.uuid() }),
    options: { retryLimit: 10, retryDelay: 30, retryBackoff: true, expireInSeconds: 60 },
  },
} as const satisfies Record<string, QueueJobType>;

export type QueueJobName = keyof typeof queueJobTypes;
export type QueueJobPayload<N extends QueueJobName> = z.infer<(typeof queueJobTypes)[N]['schema']>;
export const queueJobNames = Object.keys(queueJobTypes) as QueueJobName[];
