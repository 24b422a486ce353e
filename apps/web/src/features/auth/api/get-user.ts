import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { currentUserContract } from '@lumina/contracts';
import { api, ApiError, type ApiClient } from '@/lib/api-client';
import { getAccessToken, useProductSession } from '@/lib/auth';

export interface UserProfile {
  id: string | null;
  email: string | null;
  /** An operator of this server (ADMIN_EMAILS): only they see set-up hints such as missing provider keys. */
  isOperator: boolean;
  /** Completed or skipped onboarding; false sends them to /onboarding (features/auth/components/require-onboarded). */
  onboarded: boolean;
}

/** The profile when there is no session or it could not be loaded (docs/spec/SPEC.md §3). */
export const EMPTY_PROFILE: UserProfile = Object.freeze({
  id: null,
  email: null,
  isOperator: false,
  // Nothing known: nobody is sent to onboarding on a guess.
  onboarded: true,
});

/** Why a profile could not be loaded; each maps to one of the spec's messages in the translation file. */
export type ProfileErrorReason = 'noAccessToken' | 'fetchFailed' | 'emailNotFound';

export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  constructor(
    readonly reason: ProfileErrorReason,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
  }
}

export interface ProfileSource {
  client?: ApiClient;
  getToken?: () => Promise<string | null | undefined>;
}

/** Loads the profile from `GET /api/user` (bearer token); accepted only with an email (docs/spec/SPEC.md §5). */
export async function getUser(signal?: AbortSignal, source: ProfileSource = {}): Promise<UserProfile> {
  const token = await (source.getToken ?? getAccessToken)();
  if (!token) throw new ProfileError('noAccessToken');
  const client = source.client ?? api;
  let data: z.output<typeof currentUserContract.response>;
  try {
    data = await client.call(currentUserContract, { signal });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ProfileError('fetchFailed', { cause });
  }
  if (typeof data.email !== 'string' || !data.email.trim()) throw new ProfileError('emailNotFound');
  return { id: data.id, email: data.email, isOperator: data.is_operator, onboarded: data.onboarded };
}

/** Transient failures are retried like other queries; a missing token or email is not. */
const shouldRetry = (failureCount: number, error: unknown) =>
  error instanceof ProfileError &&
  error.reason === 'fetchFailed' &&
  !(error.cause instanceof ApiError && error.cause.status >= 400 && error.cause.status < 500) &&
  failureCount < 3;

export const getUserQueryOptions = (userId: string | null, sessionKey = 0) =>
  queryOptions({
    queryKey: ['auth', 'user', userId, sessionKey],
    queryFn: ({ signal }) => getUser(signal),
    enabled: userId !== null,
    retry: shouldRetry,
  });

/**
 * The signed-in user's profile. `profile` is EMPTY_PROFILE without a session, while a second factor or a
 * required verification is pending (nothing is asked then: the server would refuse), while loading and
 * after a failure (`error` then says why).
 */
export function useUser() {
  const { userId, sessionKey } = useProductSession();
  const query = useQuery(getUserQueryOptions(userId, sessionKey));
  const profile = query.isSuccess && userId !== null ? query.data : EMPTY_PROFILE;
  const error = userId !== null && query.error instanceof ProfileError ? query.error.reason : undefined;
  // No answer yet, not even a failed try (retries and refetches after a failure are not a first load).
  const isFirstLoad =
    userId !== null &&
    query.isPending &&
    query.failureCount === 0 &&
    query.dataUpdatedAt === 0 &&
    query.errorUpdatedAt === 0;
  return { profile, error, isLoading: userId !== null && query.isPending, isFirstLoad };
}
