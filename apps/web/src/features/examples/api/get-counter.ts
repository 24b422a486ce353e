import { queryOptions, useQuery } from '@tanstack/react-query';
import { counterContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** How often the landing page's live counter refreshes. */
export const COUNTER_REFRESH_MS = 15_000;

export const getCounterQueryOptions = () =>
  queryOptions({
    queryKey: ['examples', 'counter'] as const,
    queryFn: ({ signal }) => api.call(counterContract, { signal }),
    refetchInterval: COUNTER_REFRESH_MS,
  });

/** `GET /api/counter`: images made, models trained and photo shoots delivered so far, refreshed while the page is open. */
export const useCounter = () => useQuery(getCounterQueryOptions());
