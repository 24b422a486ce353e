import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { CREDIT_BALANCE_POLL_MS, creditBalanceContract } from '@lumina/contracts';
import { ApiError, api } from '@/lib/api-client';
import { useProductSession } from '@/lib/auth';

export const getCreditBalance = (signal?: AbortSignal) => api.call(creditBalanceContract, { signal });

export const creditBalanceQueryKey = ['credits', 'balance'] as const;

export const getCreditBalanceQueryOptions = () =>
  queryOptions({
    queryKey: creditBalanceQueryKey,
    queryFn: ({ signal }) => getCreditBalance(signal),
    // Spec section 9: the balance is polled every 30 s (and refetched right after every spend or refund).
    refetchInterval: CREDIT_BALANCE_POLL_MS,
    staleTime: CREDIT_BALANCE_POLL_MS,
    // A 401 means "signed out": asking again will not change that.
    retry: (failures, error) => !(error instanceof ApiError && error.status === 401) && failures < 3,
  });

/**
 * The signed-in user's balance; asked for only once the session is known and complete (not signed out,
 * not while a second factor or a required verification is pending: the server would refuse).
 */
export function useCreditBalance() {
  const { userId } = useProductSession();
  return useQuery({ ...getCreditBalanceQueryOptions(), enabled: userId !== null });
}

/**
 * What other features call after a spend or a refund: takes the balance the server reported when it has
 * one (POST /api/prompt answers with it), and refetches either way so the header is exact.
 */
export function useRefreshCreditBalance() {
  const queryClient = useQueryClient();
  return (balance?: number) => {
    if (balance !== undefined) queryClient.setQueryData(creditBalanceQueryKey, { balance });
    void queryClient.invalidateQueries({ queryKey: creditBalanceQueryKey });
  };
}
