import type { Container } from '../container.ts';
import type { JobHandlers } from './workers.ts';

/** The handler of every job type. Modules add theirs here as they add job types to the registry. */
export function createJobHandlers(container: Container): JobHandlers {
  const { generation } = container.services;
  return {
    'system.echo': async ({ message }) => ({ echoed: message }),
    'generation.run': ({ jobId }, ctx) => generation.worker.run(jobId, ctx),
    'generation.sync': ({ jobId }) => generation.worker.syncFromProvider(jobId),
    // Reached only when every try failed or stalled (a worker died mid-job): fail it and refund, once.
    'generation.failed': ({ jobId }) => generation.worker.abandon(jobId),
  };
}
