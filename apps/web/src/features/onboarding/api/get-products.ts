import { queryOptions, useQuery } from '@tanstack/react-query';
import { productsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const productsQueryKey = ['products'] as const;

export const getProducts = (signal?: AbortSignal) => api.call(productsContract, { signal });

export const getProductsQueryOptions = () =>
  queryOptions({ queryKey: productsQueryKey, queryFn: ({ signal }) => getProducts(signal) });

/** GET /api/products: the first product is the onboarding product (SPEC.md, "Product list"). */
export const useProducts = () => useQuery(getProductsQueryOptions());
