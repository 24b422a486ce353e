import type { QueryClient } from '@tanstack/react-query';
import type { JobView } from '@lumina/contracts';

/** The user's jobs (every kind: images, tools, video), as the progress feed last reported them. */
export const progressQueryKey = ['generate', 'progress'] as const;

export const isActiveJob = (job: Pick<JobView, 'status'>) =>
  job.status === 'queued' || job.status === 'running';

/** Writes one job's new state into the feed's cache, so every page shows it before the feed speaks again. */
export function putJob(queryClient: QueryClient, job: JobView): void {
  queryClient.setQueryData<{ jobs: JobView[] }>(progressQueryKey, (old) =>
    old ? { jobs: old.jobs.map((j) => (j.id === job.id ? job : j)) } : old,
  );
}
