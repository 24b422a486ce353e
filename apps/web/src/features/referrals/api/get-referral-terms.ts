import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicConfigContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** The programme's terms for visitors without a session, from the public config (GET /api/config). */
export const useReferralTerms = () =>
  useQuery(
    queryOptions({
      queryKey: ['system', 'config'] as const,
      queryFn: ({ signal }) => api.call(publicConfigContract, { signal }),
      select: (config) => config.referrals,
    }),
  );
