import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { onSignIn, sessionStore } from '@/lib/auth';
import { trackReferral } from '../api/track-referral';
import {
  captureReferral,
  defaultStorages,
  scheduleReferralTracking,
  sendReferralAfterSignIn,
  type ReferralDeps,
} from '../referral-capture';

/**
 * Resolves once the sign-in layer knows whether a complete session exists (tracking is a product call).
 * A sign-in still waiting for its second factor (or a required verification) is waited for: the server
 * would refuse the call until then. With `untilComplete`, a signed-out state is waited through as well
 * (right after a sign-in the session store may not have heard of the new session yet).
 */
function hasSession(untilComplete = false): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = () => {
      const { status, pending } = sessionStore.getState();
      if (status === 'unknown' || pending) return false;
      if (status === 'signedOut' && untilComplete) return false;
      resolve(status === 'signedIn');
      return true;
    };
    if (settle()) return;
    const stop = sessionStore.subscribe(() => {
      if (settle()) stop();
    });
  });
}

const deps = (): ReferralDeps => ({
  storages: defaultStorages(),
  track: trackReferral,
  hasSession: () => hasSession(),
});

/**
 * Mounted once in the app frame: keeps `?ref=` from any page (also after in-app navigation), runs the
 * load-time tracking check, and sends a held code after each successful sign-in.
 */
export function ReferralCapture() {
  const { pathname, search } = useLocation();
  // Runs on load (before the check below is scheduled) and on every in-app navigation with a query.
  useEffect(() => {
    if (search) captureReferral(new URL(pathname + search, window.location.origin).href, defaultStorages());
  }, [pathname, search]);
  useEffect(() => {
    const cancel = scheduleReferralTracking(deps());
    // After a first factor, the send waits for the second one (if asked for) to complete the session.
    const detach = onSignIn(() =>
      hasSession(true).then(() => sendReferralAfterSignIn(deps()).then(() => undefined)),
    );
    return () => {
      cancel();
      detach();
    };
  }, []);
  return null;
}
