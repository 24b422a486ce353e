import { z } from 'zod';

export interface JobDefinition {
  schema: z.ZodType;
  /** pg-boss send options: retries, backoff and how long a running job may take before it is retried. */
  options: { retryLimit: number; retryDelay?: number; retryBackoff?: boolean; expireInSeconds: number };
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
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof jobs;
export type JobPayload<N extends JobName> = z.infer<(typeof jobs)[N]['schema']>;
export const jobNames = Object.keys(jobs) as JobName[];
