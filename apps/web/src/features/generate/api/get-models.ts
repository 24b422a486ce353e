import { useMemo } from 'react';
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

/** A model's display name by id (undefined while the list loads, or for a model no longer offered). */
export function useModelName(): (id: string) => string | undefined {
  const models = useModels();
  return useMemo(() => {
    const names = new Map(models.data?.models.map((m) => [m.id, m.display_name]));
    return (id: string) => names.get(id);
  }, [models.data]);
}
