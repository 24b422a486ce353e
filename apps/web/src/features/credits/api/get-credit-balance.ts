import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { CREDIT_BALANCE_POLL_MS, creditBalanceContract } from '@lumina/contracts';
import { ApiError, api } from '@/lib/api-client';
import { useSession } from '@/lib/auth';

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

/** The signed-in user's balance; not asked for at all once the session layer knows there is no session. */
export function useCreditBalance() {
  const signedOut = useSession((s) => s.status === 'signedOut');
  return useQuery({ ...getCreditBalanceQueryOptions(), enabled: !signedOut });
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
