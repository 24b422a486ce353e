import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deleteTrainedModelContract,
  renameTrainedModelContract,
  trainedModelsContract,
  type TrainedModelView,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const myModelsQueryKey = ['training', 'my-models'] as const;
/** GET /api/models (the pickers' catalogue): a person's ready models are listed there too. */
const catalogueQueryKey = ['models'] as const;

export const getMyModels = (signal?: AbortSignal) => api.call(trainedModelsContract, { signal });

export const getMyModelsQueryOptions = () =>
  queryOptions({ queryKey: myModelsQueryKey, queryFn: ({ signal }) => getMyModels(signal) });

export const useMyModels = () => useQuery(getMyModelsQueryOptions());

/** A trained model changed (started, finished, renamed, deleted): both lists that show it are refetched. */
export function useRefreshTrainedModels() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: myModelsQueryKey });
    void queryClient.invalidateQueries({ queryKey: catalogueQueryKey });
  };
}

function putModel(models: { models: TrainedModelView[] } | undefined, model: TrainedModelView) {
  return models ? { models: models.models.map((m) => (m.id === model.id ? model : m)) } : models;
}

export function useRenameTrainedModel() {
  const queryClient = useQueryClient();
  const refresh = useRefreshTrainedModels();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api.call(renameTrainedModelContract, { params: { id }, body: { name } }),
    onSuccess: (model) => {
      queryClient.setQueryData(myModelsQueryKey, (old: { models: TrainedModelView[] } | undefined) =>
        putModel(old, model),
      );
      refresh();
    },
  });
}

export function useDeleteTrainedModel() {
  const queryClient = useQueryClient();
  const refresh = useRefreshTrainedModels();
  return useMutation({
    mutationFn: (id: string) => api.call(deleteTrainedModelContract, { params: { id } }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData(myModelsQueryKey, (old: { models: TrainedModelView[] } | undefined) =>
        old ? { models: old.models.filter((m) => m.id !== id) } : old,
      );
      refresh();
    },
  });
}
