import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cancelJobContract, type JobView } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { progressQueryKey } from './get-progress';

export const cancelJob = (id: string) => api.call(cancelJobContract, { params: { id } });

/** Cancels a queued or running job and writes its new state into the progress cache. */
export function useCancelJob({ onCancelled }: { onCancelled?: (job: JobView) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelJob,
    onSuccess: (job) => {
      queryClient.setQueryData<{ jobs: JobView[] }>(progressQueryKey, (old) =>
        old ? { jobs: old.jobs.map((j) => (j.id === job.id ? job : j)) } : old,
      );
      onCancelled?.(job);
    },
  });
}
