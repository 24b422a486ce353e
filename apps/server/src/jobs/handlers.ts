import type { JobHandlers } from './workers.ts';

/** The handler of every job type. Modules add theirs here as they add job types to the registry. */
export function createJobHandlers(): JobHandlers {
  return {
    'system.echo': async ({ message }) => ({ echoed: message }),
  };
}
