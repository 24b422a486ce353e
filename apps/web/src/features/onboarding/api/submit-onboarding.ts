import { useMutation, useQueryClient } from '@tanstack/react-query';
import { submitOnboardingContract, type OnboardingInput, type OnboardingView } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { onboardingQueryKey } from './get-onboarding';

export const submitOnboarding = (body: OnboardingInput) => api.call(submitOnboardingContract, { body });

/**
 * The stored answers become the server's answer, and the profile (GET /api/user) is refetched: it now
 * says onboarded, so the app stops sending the person to /onboarding.
 */
export function useOnboardingSaved() {
  const queryClient = useQueryClient();
  return (view: OnboardingView) => {
    queryClient.setQueryData(onboardingQueryKey, view);
    // Set now, not only refetched: the page they go on to must not be sent back here by a stale profile.
    queryClient.setQueriesData<{ onboarded: boolean }>({ queryKey: ['auth', 'user'] }, (profile) =>
      profile ? { ...profile, onboarded: view.onboarded } : profile,
    );
    void queryClient.invalidateQueries({ queryKey: ['auth', 'user'] });
  };
}

export function useSubmitOnboarding() {
  const saved = useOnboardingSaved();
  return useMutation({ mutationFn: submitOnboarding, onSuccess: saved });
}
