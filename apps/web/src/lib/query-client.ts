import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import type { StoreApi } from 'zustand/vanilla';
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

/** Query keys whose data is the same for everyone (catalogues, health): kept when a session ends. */
const PUBLIC_QUERY_ROOTS: readonly unknown[] = ['models', 'tools', 'health', 'system', 'examples'];

/**
 * When the session ends (signed out here, or found revoked: "sign out everywhere" on another device,
 * an expired refresh token), the person's data goes with it: the header balance, images, jobs and
 * profile are dropped from the cache at once, so nothing from the old session stays on screen.
 */
export function dropUserDataOnSignOut(
  queryClient: QueryClient,
  session: StoreApi<{ status: 'unknown' | 'signedIn' | 'signedOut' }>,
): () => void {
  return session.subscribe((next, previous) => {
    if (next.status !== 'signedOut' || previous.status === 'signedOut') return;
    void queryClient.cancelQueries({ predicate: (q) => !PUBLIC_QUERY_ROOTS.includes(q.queryKey[0]) });
    queryClient.removeQueries({ predicate: (q) => !PUBLIC_QUERY_ROOTS.includes(q.queryKey[0]) });
  });
}
