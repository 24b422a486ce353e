import { useMutation } from '@tanstack/react-query';
import { cancelJobContract, type JobView } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const cancelJob = (id: string) => api.call(cancelJobContract, { params: { id } });

/** Cancels a queued or running tool job; the answer is the job's new state (refunded when it had not run). */
export function useCancelJob({ onCancelled }: { onCancelled?: (job: JobView) => void } = {}) {
  return useMutation({ mutationFn: cancelJob, onSuccess: (job) => onCancelled?.(job) });
}
