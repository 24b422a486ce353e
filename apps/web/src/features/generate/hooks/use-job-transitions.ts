import { useEffect, useRef } from 'react';
import type { JobView } from '@lumina/contracts';

/**
 * Calls `onSettled` once for each job that moves from active to failed or cancelled while the page watches
 * (its credits were refunded, so the balance should be refetched), and `onSucceeded` for each that finishes.
 */
export function useJobTransitions(
  jobs: readonly JobView[] | undefined,
  handlers: { onRefund?: (job: JobView) => void; onSucceeded?: (job: JobView) => void },
) {
  const seen = useRef(new Map<string, JobView['status']>());
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });
  useEffect(() => {
    if (!jobs) return;
    for (const job of jobs) {
      const before = seen.current.get(job.id);
      seen.current.set(job.id, job.status);
      if (before === job.status) continue;
      const wasActive = before === undefined ? false : before === 'queued' || before === 'running';
      if (!wasActive) continue;
      if (job.status === 'failed' || job.status === 'cancelled') handlersRef.current.onRefund?.(job);
      if (job.status === 'succeeded') handlersRef.current.onSucceeded?.(job);
    }
  }, [jobs]);
}
