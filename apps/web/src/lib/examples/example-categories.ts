import { queryOptions, useQuery } from '@tanstack/react-query';
import { exampleCategoriesContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** Public examples data lives under this root (kept across sign-out); publishing changes it. */
export const examplesQueryKey = ['examples'] as const;

/**
 * The categories that have public examples, for the Examples page's chips, the Gallery's Examples tab
 * and the publish dialog: one query, so a publish refreshes all three.
 */
export const exampleCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: [...examplesQueryKey, 'categories'] as const,
    queryFn: ({ signal }) => api.call(exampleCategoriesContract, { signal }),
  });

export const useExampleCategories = () => useQuery(exampleCategoriesQueryOptions());
