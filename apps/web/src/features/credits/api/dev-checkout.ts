import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  devCheckoutCancelContract,
  devCheckoutCompleteContract,
  devCheckoutSessionContract,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getDevCheckoutSession = (sessionId: string, signal?: AbortSignal) =>
  api.call(devCheckoutSessionContract, { params: { session_id: sessionId }, signal });

export const getDevCheckoutSessionQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: ['credits', 'dev-checkout', sessionId] as const,
    queryFn: ({ signal }) => getDevCheckoutSession(sessionId, signal),
    retry: false,
  });

export const useDevCheckoutSession = (sessionId: string) =>
  useQuery({ ...getDevCheckoutSessionQueryOptions(sessionId), enabled: sessionId !== '' });

/** Pay or cancel the development checkout; either answers with where the browser goes next. */
export function useDevCheckoutAction(sessionId: string) {
  return useMutation({
    mutationFn: (action: 'complete' | 'cancel') =>
      api.call(action === 'complete' ? devCheckoutCompleteContract : devCheckoutCancelContract, {
        params: { session_id: sessionId },
      }),
  });
}
