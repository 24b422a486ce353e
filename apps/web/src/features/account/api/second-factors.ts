import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { loadSuperTokens, useSession } from '@/lib/auth';

/** Second factors the server lets this user set up or already has (through the SDK's `PUT /auth/mfa/info`). */
export const getSecondFactorsQueryOptions = (userId: string | null) =>
  queryOptions({
    queryKey: ['account', 'second-factors', userId],
    queryFn: async () => (await loadSuperTokens()).secondFactorInfo(),
    enabled: userId !== null,
    staleTime: 0,
    retry: false,
  });

export function useSecondFactors() {
  const userId = useSession((s) => s.userId);
  return useQuery(getSecondFactorsQueryOptions(userId));
}

export function useTurnOffTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await loadSuperTokens()).removeTotpDevices(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['account', 'second-factors'] }),
  });
}
