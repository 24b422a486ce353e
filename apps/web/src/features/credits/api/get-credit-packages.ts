import { queryOptions, useQuery } from '@tanstack/react-query';
import { creditPackagesContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getCreditPackages = (signal?: AbortSignal) => api.call(creditPackagesContract, { signal });

export const getCreditPackagesQueryOptions = () =>
  queryOptions({
    queryKey: ['credits', 'packages'] as const,
    queryFn: ({ signal }) => getCreditPackages(signal),
  });

export const useCreditPackages = () => useQuery(getCreditPackagesQueryOptions());
