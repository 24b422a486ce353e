import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { signOut } from '@/lib/auth';

/** Signs this device out and goes home; `pending` while it runs (the user menu and the account page). */
export function useSignOut() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const run = async () => {
    setPending(true);
    try {
      await signOut();
      void navigate(paths.home);
    } finally {
      setPending(false);
    }
  };
  return { signOut: run, pending };
}
