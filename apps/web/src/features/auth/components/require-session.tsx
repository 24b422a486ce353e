import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { loadSuperTokens, useSession } from '@/lib/auth';
import { authUrlFor } from '@/lib/supertokens-config';
import { Spinner } from '@/components/ui/spinner';
import { RequireOnboarded } from './require-onboarded';

/** The SDK's SessionAuth (claim checks: second factor, email verification), loaded with the SDK. */
const SessionGuard = lazy(() => loadSuperTokens().then(() => import('./session-guard')));

function PageSpinner() {
  return (
    <div className="flex justify-center py-24" aria-busy="true" data-testid="session-loading">
      <Spinner />
    </div>
  );
}

/**
 * Layout route for pages that need a session. Without one it sends the visitor to /auth with
 * `redirectToPath` set to the current page, so sign-in returns here (docs/spec/SPEC.md §4). With one, a
 * person who has not onboarded yet goes to /onboarding first (RequireOnboarded).
 */
export function RequireSession() {
  const status = useSession((s) => s.status);
  const { pathname, search } = useLocation();
  if (status === 'unknown') return <PageSpinner />;
  if (status === 'signedOut') return <Navigate to={authUrlFor(`${pathname}${search}`)} replace />;
  return (
    <Suspense fallback={<PageSpinner />}>
      <SessionGuard>
        <RequireOnboarded>
          <Outlet />
        </RequireOnboarded>
      </SessionGuard>
    </Suspense>
  );
}
