import type { ProductView } from '@lumina/contracts';
import { ApiError } from '@/lib/api-client';

/**
 * The product list as the spec gives it (SPEC.md "Product list failure"): on a failure the message is
 * kept (the server's own words when it answered with them, else `fallback`, 'Failed to fetch
 * products.') and the list is empty, never a stale or partial one.
 */
export function productListOutcome(
  query: { data: readonly ProductView[] | undefined; error: Error | null },
  fallback: string,
): { products: readonly ProductView[]; message: string | null } {
  if (query.error) {
    // A server answer carries its request id; a network failure or a broken answer does not.
    const fromServer = query.error instanceof ApiError && query.error.requestId !== undefined;
    return { products: [], message: fromServer ? query.error.message : fallback };
  }
  return { products: query.data ?? [], message: null };
}
