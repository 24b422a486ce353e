import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { processPaymentContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { creditBalanceQueryKey } from './get-credit-balance';
import { creditHistoryQueryKey } from './get-credit-history';
import { transactionsQueryKey } from './get-transactions';

export const processPayment = (sessionId: string, signal?: AbortSignal) =>
  api.call(processPaymentContract, { body: { session_id: sessionId }, signal });

/** While Stripe still reports the payment as pending, ask again this often. */
export const PROCESS_PAYMENT_PENDING_POLL_MS = 2_000;

/**
 * POST /api/process_payment as a query keyed by the session: React Query dedupes it, so the success page
 * confirms a checkout once even when StrictMode mounts it twice, and the header balance takes the new
 * balance the moment it arrives.
 */
export const getProcessPaymentQueryOptions = (sessionId: string, queryClient: QueryClient) =>
  queryOptions({
    queryKey: ['credits', 'process-payment', sessionId] as const,
    queryFn: async () => {
      const result = await processPayment(sessionId);
      queryClient.setQueryData(creditBalanceQueryKey, { balance: result.balance });
      void queryClient.invalidateQueries({ queryKey: creditHistoryQueryKey });
      void queryClient.invalidateQueries({ queryKey: transactionsQueryKey });
      return result;
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' ? PROCESS_PAYMENT_PENDING_POLL_MS : false,
  });

export function useProcessPayment(sessionId: string) {
  const queryClient = useQueryClient();
  return useQuery({ ...getProcessPaymentQueryOptions(sessionId, queryClient), enabled: sessionId !== '' });
}
