import { describe, expect, it } from 'vitest';
import { QUERY_RETRIES, QUERY_RETRY_DELAY_CAP_MS, QUERY_STALE_CACHE_MS } from '@lumina/contracts';
import { createQueryClient, retryDelay } from './query-client';

describe('query client', () => {
  it('uses the spec constants: 5 min cache and staleness, 3 query retries, no mutation retries', () => {
    const options = createQueryClient().getDefaultOptions();
    expect(QUERY_STALE_CACHE_MS).toBe(300_000);
    expect(options.queries?.gcTime).toBe(QUERY_STALE_CACHE_MS);
    expect(options.queries?.staleTime).toBe(QUERY_STALE_CACHE_MS);
    expect(options.queries?.retry).toBe(QUERY_RETRIES);
    expect(QUERY_RETRIES).toBe(3);
    expect(options.queries?.retryDelay).toBe(retryDelay);
    expect(options.mutations?.retry).toBe(false);
  });

  it('backs off exponentially from 1 s, capped at 30 s', () => {
    const delays = Array.from({ length: 11 }, (_, attempt) => retryDelay(attempt));
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000, 30000]);
    expect(Math.max(...delays)).toBe(QUERY_RETRY_DELAY_CAP_MS);
  });
});
