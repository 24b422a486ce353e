import { useMutation, useQueryClient } from '@tanstack/react-query';
import { promptContract, type JobView, type PromptRequest } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { progressQueryKey } from '@/lib/jobs/job-cache';

export const createPrompt = (body: PromptRequest) => api.call(promptContract, { body });

type Accepted = Awaited<ReturnType<typeof createPrompt>>;

/** Starts a generation; the new job shows at once (queued) until the next progress snapshot replaces it. */
export function useCreatePrompt({ onAccepted }: { onAccepted?: (accepted: Accepted) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createPrompt,
    onSuccess: (accepted, request) => {
      queryClient.setQueryData<{ jobs: JobView[] }>(progressQueryKey, (old) => {
        const jobs = old?.jobs ?? [];
        if (jobs.some((job) => job.id === accepted.job_id)) return old;
        const placeholder: JobView = {
          id: accepted.job_id,
          kind: 'generate',
          status: accepted.status,
          model: request.model,
          prompt: request.text.trim(),
          cost: accepted.cost,
          refunded: false,
          queue_position: null,
          percent: null,
          message: null,
          preview_url: null,
          error: null,
          image_ids: [],
          num_images: request.num_images ?? 1,
          purchase_id: null,
          made_by: null,
          moved: null,
          created_at: new Date().toISOString(),
          started_at: null,
          finished_at: null,
        };
        return { jobs: [placeholder, ...jobs] };
      });
      void queryClient.invalidateQueries({ queryKey: progressQueryKey });
      onAccepted?.(accepted);
    },
  });
}
