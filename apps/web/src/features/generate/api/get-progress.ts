import { queryOptions, useQuery } from '@tanstack/react-query';
import { progressContract, type JobView } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getProgress = (signal?: AbortSignal) => api.call(progressContract, { signal });

export const progressQueryKey = ['generate', 'progress'] as const;

/** Polling interval while the live stream is down and a job is still queued or running. */
export const PROGRESS_POLL_MS = 2_000;

export const isActiveJob = (job: Pick<JobView, 'status'>) =>
  job.status === 'queued' || job.status === 'running';

export const getProgressQueryOptions = () =>
  queryOptions({
    queryKey: progressQueryKey,
    queryFn: ({ signal }) => getProgress(signal),
  });

/**
 * The user's jobs. The SSE stream writes its snapshots into this query's cache; while the stream is down
 * (`live` false) the query polls every 2 s, and stops polling once no job is active.
 */
export function useProgress({ live }: { live: boolean }) {
  return useQuery({
    ...getProgressQueryOptions(),
    // While the stream is live its snapshots are the truth; fetching as well could land an older answer.
    enabled: !live,
    refetchInterval: (query) =>
      !live && (query.state.data?.jobs ?? []).some(isActiveJob) ? PROGRESS_POLL_MS : false,
  });
}
