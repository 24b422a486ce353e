import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { QUERY_RETRIES, QUERY_RETRY_DELAY_CAP_MS, QUERY_STALE_CACHE_MS } from '@lumina/contracts';

/** Exponential back-off between retries: 1 s, 2 s, 4 s … capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, QUERY_RETRY_DELAY_CAP_MS);
}

export const queryConfig = {
  defaultOptions: {
    queries: {
      gcTime: QUERY_STALE_CACHE_MS,
      staleTime: QUERY_STALE_CACHE_MS,
      retry: QUERY_RETRIES,
      retryDelay,
    },
    mutations: {
      retry: false,
    },
  },
} satisfies QueryClientConfig;

export function createQueryClient(): QueryClient {
  return new QueryClient(queryConfig);
}
