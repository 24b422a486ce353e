import { queryOptions, useQuery } from '@tanstack/react-query';
import { myProductsContract, type PurchaseStatus, type PurchaseView } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const myProductsQueryKey = ['products', 'mine'] as const;

/** While a purchase trains or generates, its progress is asked for this often. */
export const MY_PRODUCTS_POLL_MS = 3_000;

/** States a purchase moves on from by itself (a waiting one needs the buyer, the rest are final). */
const ACTIVE: readonly PurchaseStatus[] = ['training', 'generating'];
export const isActive = (purchase: PurchaseView) => ACTIVE.includes(purchase.status);

export const getMyProducts = (signal?: AbortSignal) => api.call(myProductsContract, { signal });

/**
 * `GET /api/myproducts`, polled while any purchase is training or generating and left alone once every
 * one is waiting, ready or failed (the purchase's progress has no stream of its own).
 */
export const getMyProductsQueryOptions = () =>
  queryOptions({
    queryKey: myProductsQueryKey,
    queryFn: ({ signal }) => getMyProducts(signal),
    refetchInterval: (query) => (query.state.data?.some(isActive) ? MY_PRODUCTS_POLL_MS : false),
  });

export const useMyProducts = () => useQuery(getMyProductsQueryOptions());
