import { queryOptions, useQuery } from '@tanstack/react-query';
import { referralStatsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const referralsQueryKey = ['referrals'] as const;
export const referralStatsQueryKey = [...referralsQueryKey, 'stats'] as const;

export const getReferralStats = (signal?: AbortSignal) => api.call(referralStatsContract, { signal });

/** The caller's numbers and codes (GET /api/referrals/stats). */
export const useReferralStats = () =>
  useQuery(
    queryOptions({ queryKey: referralStatsQueryKey, queryFn: ({ signal }) => getReferralStats(signal) }),
  );
