import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { creditHistoryContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const CREDIT_HISTORY_PAGE_SIZE = 20;

export const getCreditHistory = (cursor: string | undefined, signal?: AbortSignal) =>
  api.call(creditHistoryContract, { query: { cursor, limit: CREDIT_HISTORY_PAGE_SIZE }, signal });

export const creditHistoryQueryKey = ['credits', 'history'] as const;

export const getCreditHistoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: creditHistoryQueryKey,
    queryFn: ({ pageParam, signal }) => getCreditHistory(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

export const useCreditHistory = () => useInfiniteQuery(getCreditHistoryQueryOptions());
