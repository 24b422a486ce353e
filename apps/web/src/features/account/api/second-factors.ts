import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  disableSecondFactorContract,
  enableSecondFactorContract,
  secondFactorsContract,
  type SecondFactorId,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { loadSuperTokens, useProductSession } from '@/lib/auth';

const KEY = ['account', 'second-factors'] as const;

/** The signed-in user's second factors (`GET /api/user/second-factors`). */
export const getSecondFactorsQueryOptions = (userId: string | null, sessionKey = 0) =>
  queryOptions({
    queryKey: [...KEY, userId, sessionKey],
    queryFn: ({ signal }) => api.call(secondFactorsContract, { signal }),
    enabled: userId !== null,
    staleTime: 0,
    retry: false,
  });

export function useSecondFactors() {
  const { userId, sessionKey } = useProductSession();
  return useQuery(getSecondFactorsQueryOptions(userId, sessionKey));
}

/** A change to the person's second factors (or passkeys): the list is read again however it ends. */
export function useFactorMutation<Input = SecondFactorId>(mutationFn: (input: Input) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
}

/** Asks for this factor at every sign-in (`PUT /api/user/second-factors/{factorId}`). */
export function useTurnOnFactor() {
  return useFactorMutation((factorId) => api.call(enableSecondFactorContract, { params: { factorId } }));
}

/**
 * Stops asking for this factor. TOTP also forgets the authenticator app (the SDK's
 * `POST /auth/totp/device/remove` for every device), so turning it on again starts with a new secret;
 * when the server first wants a fresh code from the app, `navigate` takes the person to the code screen
 * and nothing is turned off yet.
 */
export function useTurnOffFactor(navigate: (to: string) => void) {
  return useFactorMutation(async (factorId) => {
    if (factorId === 'totp' && !(await (await loadSuperTokens()).removeTotpDevices(navigate))) {
      return undefined;
    }
    return api.call(disableSecondFactorContract, { params: { factorId } });
  });
}
