import { queryOptions, useQuery } from '@tanstack/react-query';
import { productsContract, type ProductView } from '@lumina/contracts';
import { api, ApiError } from '@/lib/api-client';

export const productsQueryKey = ['products', 'list'] as const;

export const getProducts = (signal?: AbortSignal) => api.call(productsContract, { signal });

export const getProductsQueryOptions = () =>
  queryOptions({ queryKey: productsQueryKey, queryFn: ({ signal }) => getProducts(signal) });

/**
 * The server's own message for a failed product list, or null when it gave none (no answer, or one that
 * could not be read): the page then says "Failed to fetch products." (SPEC.md §7).
 */
export function productListError(error: Error): string | null {
  if (error instanceof ApiError && (error.code === 'NETWORK_ERROR' || error.code === 'INVALID_RESPONSE'))
    return null;
  return error.message.trim() || null;
}

/**
 * `GET /api/products` as SPEC.md §7 (P2) asks: when it fails the list is empty, never an older list
 * beside the error, and `error` is the server's message (null: none given).
 */
export function useProducts(): {
  products: ProductView[];
  failed: boolean;
  error: string | null;
  isPending: boolean;
  refetch: () => unknown;
} {
  const query = useQuery(getProductsQueryOptions());
  const failed = query.isError;
  return {
    products: failed ? [] : (query.data ?? []),
    failed,
    error: failed ? productListError(query.error) : null,
    isPending: query.isPending,
    refetch: query.refetch,
  };
}
