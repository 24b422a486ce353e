import { queryOptions, useQuery } from '@tanstack/react-query';
import { onboardingContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const onboardingQueryKey = ['onboarding'] as const;

export const getOnboarding = (signal?: AbortSignal) => api.call(onboardingContract, { signal });

export const getOnboardingQueryOptions = () =>
  queryOptions({ queryKey: onboardingQueryKey, queryFn: ({ signal }) => getOnboarding(signal) });

/** The caller's answers as stored: the wizard resumes from them after a reload, the account page edits them. */
export const useOnboarding = () => useQuery(getOnboardingQueryOptions());
