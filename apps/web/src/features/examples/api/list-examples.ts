import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { listExamplesContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const EXAMPLES_PAGE_SIZE = 24;

/** Public examples (no session needed); `category` is omitted for "All" (spec P9). */
export const listExamples = (
  query: { category?: string; limit?: number; cursor?: string },
  signal?: AbortSignal,
) => api.call(listExamplesContract, { query, signal });

export const listExamplesInfiniteOptions = (category?: string) =>
  infiniteQueryOptions({
    queryKey: ['examples', 'list', category ?? null] as const,
    queryFn: ({ pageParam, signal }) =>
      listExamples(
        { ...(category ? { category } : {}), limit: EXAMPLES_PAGE_SIZE, cursor: pageParam },
        signal,
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

export const useExamples = (category?: string) => useInfiniteQuery(listExamplesInfiniteOptions(category));

/** The first few examples, for the landing page. */
export const featuredExamplesQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: ['examples', 'featured', limit] as const,
    queryFn: ({ signal }) => listExamples({ limit }, signal),
  });

export const useFeaturedExamples = (limit: number) => useQuery(featuredExamplesQueryOptions(limit));
