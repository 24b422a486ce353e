import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createReferralCodeContract,
  deleteReferralCodeContract,
  toggleReferralCodeContract,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { referralStatsQueryKey } from './get-referral-stats';

/** Every change to a code refetches the stats, which list the codes with their numbers. */
function useRefreshStats() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: referralStatsQueryKey });
}

export interface NewReferralCode {
  /** Empty: the server makes one up. */
  code: string;
  /** An ISO date-time, or null for a code that never expires. */
  expiresAt: string | null;
}

export const createReferralCode = ({ code, expiresAt }: NewReferralCode) =>
  api.call(createReferralCodeContract, { body: { code: code.trim(), expires_at: expiresAt } });

export function useCreateReferralCode() {
  const refresh = useRefreshStats();
  return useMutation({ mutationFn: createReferralCode, onSuccess: refresh });
}

export const toggleReferralCode = (code: string) =>
  api.call(toggleReferralCodeContract, { params: { code } });

export function useToggleReferralCode() {
  const refresh = useRefreshStats();
  return useMutation({ mutationFn: toggleReferralCode, onSuccess: refresh });
}

export const deleteReferralCode = (code: string) =>
  api.call(deleteReferralCodeContract, { params: { code } });

export function useDeleteReferralCode() {
  const refresh = useRefreshStats();
  return useMutation({ mutationFn: deleteReferralCode, onSuccess: refresh });
}
