import { queryOptions, useQuery } from '@tanstack/react-query';
import { referralsListContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { referralsQueryKey } from './get-referral-stats';

export const getReferrals = (signal?: AbortSignal) => api.call(referralsListContract, { signal });

/** The people who joined through the caller, emails masked by the server (GET /api/referrals/referrals). */
export const useReferrals = () =>
  useQuery(
    queryOptions({
      queryKey: [...referralsQueryKey, 'people'] as const,
      queryFn: ({ signal }) => getReferrals(signal),
    }),
  );
