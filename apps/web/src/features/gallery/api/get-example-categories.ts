import { queryOptions, useQuery } from '@tanstack/react-query';
import { exampleCategoriesContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getExampleCategories = (signal?: AbortSignal) => api.call(exampleCategoriesContract, { signal });

export const getExampleCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['images', 'example-categories'],
    queryFn: ({ signal }) => getExampleCategories(signal),
  });

export const useExampleCategories = () => useQuery(getExampleCategoriesQueryOptions());
