import { useMutation } from '@tanstack/react-query';
import { skipOnboardingContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { useOnboardingSaved } from './submit-onboarding';

export const skipOnboarding = () => api.call(skipOnboardingContract);

/** "Skip for now": the person counts as onboarded (the answers can be given later on the account page). */
export function useSkipOnboarding() {
  const saved = useOnboardingSaved();
  return useMutation({ mutationFn: skipOnboarding, onSuccess: saved });
}
