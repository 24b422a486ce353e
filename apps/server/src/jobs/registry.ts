import { z } from 'zod';

export interface JobDefinition {
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
}

/**
 * Every job type: its name, payload schema and retry policy, in one place. The worker refuses to
 * start unless each has exactly one handler.
 */
export const jobs = {
  // A demonstration job that proves the queue end to end (enqueue, restart, complete). Used by
  // `/api/ready`'s tests and the restart test; it has no side effects beyond its output.
  'system.echo': {
    schema: z.object({ message: z.string().max(1000) }),
    options: { retryLimit: 2, retryDelay: 1, retryBackoff: true, expireInSeconds: 60 },
  },
  // One generation job. Transient provider errors retry with backoff; a job still running after
  // expireInSeconds (a worker that died) is retried too. After the last try it lands in
  // generation.failed, whose handler marks the job failed and refunds it, so nothing is lost.
  // Retries, their delay and the expiry come from config (GENERATION_*), applied in container.ts.
  'generation.run': {
    schema: z.object({ jobId: z.uuid() }),
    options: {
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: 900,
      deadLetter: 'generation.failed',
    },
  },
  // A verified provider webhook said a request finished: fetch the result and complete the job (the
  // polling worker may get there first; the job still finishes once).
  'generation.sync': {
    schema: z.object({ jobId: z.uuid() }),
    options: { retryLimit: 3, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 },
  },
  'generation.failed': {
    schema: z.object({ jobId: z.uuid() }),
    options: { retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 },
  },
  // Renders and publishes the example set on a fresh install (modules/examples). Idempotent: a retry
  // or a second copy (several processes starting at once) skips what exists. ~1 s of CPU per image.
  'examples.seed': {
    schema: z.object({}),
    options: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 1800 },
  },
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof jobs;
export type JobPayload<N extends JobName> = z.infer<(typeof jobs)[N]['schema']>;
export const jobNames = Object.keys(jobs) as JobName[];
