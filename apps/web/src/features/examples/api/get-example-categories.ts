import { queryOptions, useQuery } from '@tanstack/react-query';
import { exampleCategoriesContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getExampleCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['examples', 'categories'] as const,
    queryFn: ({ signal }) => api.call(exampleCategoriesContract, { signal }),
  });

export const useExampleCategories = () => useQuery(getExampleCategoriesQueryOptions());
