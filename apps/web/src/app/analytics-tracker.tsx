import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { identify, resetAnalytics, trackPageleave, trackPageview } from '@/lib/analytics';
import { useSession } from '@/lib/auth';
import { useUser } from '@/features/auth/api/get-user';

/**
 * Sends what the spec (docs/spec/SPEC.md §9) asks of product analytics: a page view on every route change (and a page leave
 * for the route left), the signed-in person identified by id and email, and a reset on sign-out.
 * Renders nothing; without analytics configured every call is a no-op.
 */
export function AnalyticsTracker() {
  const location = useLocation();
  const url = `${location.pathname}${location.search}`;
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (previous.current === url) return;
    if (previous.current !== null) trackPageleave(`${window.location.origin}${previous.current}`);
    previous.current = url;
    trackPageview();
  }, [url]);

  const { profile } = useUser();
  useEffect(() => {
    if (profile.id && profile.email) identify(profile.id, profile.email);
  }, [profile.id, profile.email]);

  const status = useSession((s) => s.status);
  const wasSignedIn = useRef(false);
  useEffect(() => {
    if (status === 'signedIn') wasSignedIn.current = true;
    if (status === 'signedOut' && wasSignedIn.current) {
      wasSignedIn.current = false;
      resetAnalytics();
    }
  }, [status]);
  return null;
}
