import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/lib/auth';
import { useUser } from '../api/get-user';

/** Where onboarding sends a person when they finish or skip it: the page they first opened. */
export const ONBOARDING_NEXT_PARAM = 'next';

/** `/onboarding?next=<path>`: onboarding, set to return to `path`. */
export function onboardingUrlFor(path: string): string {
  return `${paths.onboarding}?${new URLSearchParams({ [ONBOARDING_NEXT_PARAM]: path })}`;
}

/**
 * Inside RequireSession: a signed-in person whose /api/user says they are not onboarded goes to
 * /onboarding first, keeping the page they opened to come back to (/onboarding itself is let through).
 * While the profile first loads the page waits (a page that renders and then jumps away is worse); when
 * the profile cannot be loaded the page opens, since onboarding is an offer and the header says what
 * failed (and a later retry of that failed load does not take the page away again).
 */
export function RequireOnboarded({ children }: { children: ReactNode }) {
  const { profile, isFirstLoad } = useUser();
  // The SDK's guard let the page through, so the claims pass; the app's session store catches up a moment
  // later (SessionGuard re-reads it). Until then no profile is asked for, and the page waits for it.
  const pending = useSession((s) => s.status === 'signedIn' && s.pending);
  const { pathname, search } = useLocation();
  if (pathname === paths.onboarding && !pending) return children;
  if (isFirstLoad || pending) {
    return (
      <div className="flex justify-center py-24" aria-busy="true" data-testid="onboarded-loading">
        <Spinner />
      </div>
    );
  }
  if (!profile.onboarded) return <Navigate to={onboardingUrlFor(`${pathname}${search}`)} replace />;
  return children;
}
