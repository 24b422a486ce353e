import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { operatorVendorsContract, resetVendorContract, type Vendor } from '@lumina/contracts';
import { QUERY_RETRIES } from '@lumina/contracts';
import { ApiError, api } from '@/lib/api-client';

export const vendorsQueryKey = ['operator', 'vendors'] as const;

export const getVendors = (signal?: AbortSignal) => api.call(operatorVendorsContract, { signal });

export const getVendorsQueryOptions = () =>
  queryOptions({
    queryKey: vendorsQueryKey,
    queryFn: ({ signal }) => getVendors(signal),
    // Breakers open and close on their own: keep the page current while it is open.
    refetchInterval: 15_000,
    // A refusal (not an operator) is the answer, not a hiccup: show it at once.
    retry: (failures, error) =>
      !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < QUERY_RETRIES,
  });

export const useVendors = () => useQuery(getVendorsQueryOptions());

/** Closes one vendor's breaker; the page reloads the list. */
export function useResetVendor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: Vendor) => api.call(resetVendorContract, { params: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vendorsQueryKey }),
  });
}
