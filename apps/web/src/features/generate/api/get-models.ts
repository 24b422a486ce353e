import { queryOptions, useQuery } from '@tanstack/react-query';
import { modelsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getModels = (signal?: AbortSignal) => api.call(modelsContract, { signal });

export const getModelsQueryOptions = () =>
  queryOptions({
    queryKey: ['models'],
    queryFn: ({ signal }) => getModels(signal),
  });

export const useModels = () => useQuery(getModelsQueryOptions());
