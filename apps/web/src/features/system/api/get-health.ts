import { queryOptions, useQuery } from '@tanstack/react-query';
import { healthContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getHealth = (signal?: AbortSignal) => api.call(healthContract, { signal });

export const getHealthQueryOptions = () =>
  queryOptions({
    queryKey: ['system', 'health'],
    queryFn: ({ signal }) => getHealth(signal),
  });

export const useHealth = () => useQuery(getHealthQueryOptions());
