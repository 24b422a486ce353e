import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { progressContract, type JobView } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { isActiveJob, progressQueryKey } from '@/lib/jobs/job-cache';

export const getProgress = (signal?: AbortSignal) => api.call(progressContract, { signal });

/** Polling interval while the live stream is down and a job is still queued or running. */
export const PROGRESS_POLL_MS = 2_000;

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

/**
 * An image was deleted: drop it from its job at once (the live stream only speaks when a job changes),
 * so a job whose every image is gone leaves no empty card behind.
 */
export function forgetJobImage(queryClient: QueryClient, imageId: string): void {
  queryClient.setQueryData<{ jobs: JobView[] }>(progressQueryKey, (old) =>
    old
      ? {
          jobs: old.jobs.map((job) =>
            job.image_ids.includes(imageId)
              ? { ...job, image_ids: job.image_ids.filter((id) => id !== imageId) }
              : job,
          ),
        }
      : old,
  );
}

/** A finished job with none of its images left (all deleted): nothing to show. */
export const isEmptiedJob = (job: Pick<JobView, 'status' | 'image_ids' | 'num_images'>) =>
  job.status === 'succeeded' && job.num_images > 0 && job.image_ids.length === 0;
