import { queryOptions, useQuery } from '@tanstack/react-query';
import { validateReferralContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const validateReferral = (code: string, signal?: AbortSignal) =>
  api.call(validateReferralContract, { params: { code }, signal });

/**
 * Who invited the visitor and what they will get (GET /api/referrals/validate/{code}, public). Asked
 * once per code and page view: each answer counts a link visit.
 */
export const useReferralValidation = (code: string | null) =>
  useQuery(
    queryOptions({
      queryKey: ['referrals', 'validate', code] as const,
      queryFn: ({ signal }) => validateReferral(code ?? '', signal),
      enabled: code !== null,
      retry: false,
      staleTime: Infinity,
    }),
  );
