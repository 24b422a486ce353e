import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  trainModelContract,
  trainReplicateContract,
  type ModelInfo,
  type TrainedModelView,
  type TrainRequest,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { progressQueryKey } from '@/lib/jobs/job-cache';
import { myModelsQueryKey } from './my-models';

/**
 * Starts a training. A Replicate train model goes to the route that always trains on Replicate; every
 * other one to the operator's default trainer, told which train model the form chose.
 */
export function startTraining({ request, trainer }: { request: TrainRequest; trainer: ModelInfo }) {
  const contract = trainer.provider === 'replicate' ? trainReplicateContract : trainModelContract;
  return api.call(contract, { body: request });
}

type Accepted = Awaited<ReturnType<typeof startTraining>>;

/** Starts a training; the new model shows in "your models" at once and the job in the progress feed. */
export function useStartTraining({ onAccepted }: { onAccepted?: (accepted: Accepted) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startTraining,
    onSuccess: (accepted) => {
      queryClient.setQueryData(myModelsQueryKey, (old: { models: TrainedModelView[] } | undefined) =>
        old ? { models: [accepted.model, ...old.models.filter((m) => m.id !== accepted.model.id)] } : old,
      );
      void queryClient.invalidateQueries({ queryKey: myModelsQueryKey });
      void queryClient.invalidateQueries({ queryKey: progressQueryKey });
      onAccepted?.(accepted);
    },
  });
}
