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

/** Resolves once the sign-in layer knows whether a session exists. */
function hasSession(): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = () => {
      const { status } = sessionStore.getState();
      if (status === 'unknown') return false;
      resolve(status === 'signedIn');
      return true;
    };
    if (settle()) return;
    const stop = sessionStore.subscribe(() => {
      if (settle()) stop();
    });
  });
}

const deps = (): ReferralDeps => ({ storages: defaultStorages(), track: trackReferral, hasSession });

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
    const detach = onSignIn(() => sendReferralAfterSignIn(deps()).then(() => undefined));
    return () => {
      cancel();
      detach();
    };
  }, []);
  return null;
}
