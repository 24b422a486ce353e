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
  const { search } = useLocation();
  useEffect(() => {
    if (search) captureReferral(window.location.href, defaultStorages());
  }, [search]);
  useEffect(() => {
    captureReferral(window.location.href, defaultStorages());
    const cancel = scheduleReferralTracking(deps());
    const detach = onSignIn(() => sendReferralAfterSignIn(deps()).then(() => undefined));
    return () => {
      cancel();
      detach();
    };
  }, []);
  return null;
}
