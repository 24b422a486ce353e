import type { ReactNode } from 'react';
import { SessionAuth } from 'supertokens-auth-react/recipe/session';

/**
 * The SDK's own guard: re-validates the session's claims (st-mfa, st-ev) and sends the user to the
 * second-factor or verification screen when one fails; on an expired session it goes to /auth.
 */
export default function SessionGuard({ children }: { children: ReactNode }) {
  return <SessionAuth>{children}</SessionAuth>;
}
