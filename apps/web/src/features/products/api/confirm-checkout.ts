import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { processPaymentContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { myProductsQueryKey } from './get-my-products';

/** While the payment is still pending, ask again this often. */
export const CHECKOUT_PENDING_POLL_MS = 2_000;

/**
 * Back from the checkout on My products (`?session_id=`): `POST /api/process_payment` as a query keyed
 * by the session, so it is sent once even when StrictMode mounts the page twice (the server runs a
 * payment once however often it is asked). Once paid, the purchases and the balance are fetched again.
 */
export const getConfirmCheckoutQueryOptions = (sessionId: string, queryClient: QueryClient) =>
  queryOptions({
    queryKey: ['products', 'process-payment', sessionId] as const,
    queryFn: async () => {
      const result = await api.call(processPaymentContract, { body: { session_id: sessionId } });
      if (result.status === 'paid') {
        void queryClient.invalidateQueries({ queryKey: myProductsQueryKey });
        void queryClient.invalidateQueries({ queryKey: ['credits'] });
        void queryClient.invalidateQueries({ queryKey: ['reviews'] });
      }
      return result;
    },
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? CHECKOUT_PENDING_POLL_MS : false),
  });

export function useConfirmCheckout(sessionId: string) {
  const queryClient = useQueryClient();
  return useQuery({ ...getConfirmCheckoutQueryOptions(sessionId, queryClient), enabled: sessionId !== '' });
}
