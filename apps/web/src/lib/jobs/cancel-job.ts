import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cancelJobContract, type JobView } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { putJob } from './job-cache';

export const cancelJob = (id: string) => api.call(cancelJobContract, { params: { id } });

/**
 * Cancels a queued or running job of any kind; the answer (its new state, refunded when it had not run)
 * goes into the progress cache.
 */
export function useCancelJob({ onCancelled }: { onCancelled?: (job: JobView) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelJob,
    onSuccess: (job) => {
      putJob(queryClient, job);
      onCancelled?.(job);
    },
  });
}
