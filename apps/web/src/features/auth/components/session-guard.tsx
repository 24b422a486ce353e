import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SessionAuth, useSessionContext } from 'supertokens-auth-react/recipe/session';
import { AccessDeniedScreen } from 'supertokens-auth-react/recipe/session/prebuiltui';
import type { ClaimValidationError } from 'supertokens-web-js/recipe/session';
import { recheckSession } from '@/lib/auth';
import { emailVerificationModeNow } from '@/lib/supertokens';
import { accessDeniedText, guardClaimValidators } from '@/lib/supertokens-config';
import { VerifyToEnter } from './verify-to-enter';

/**
 * Rendered by SessionAuth once the claims pass: reads the session again so the app's own gate on product
 * calls (`useProductSession`) agrees with the SDK at once, e.g. right after the second factor was entered
 * on another tab or the access-token event has not reached the app yet.
 */
function ClaimsPassed({ children }: { children: ReactNode }) {
  const context = useSessionContext();
  const passed = !context.loading && context.doesSessionExist && context.invalidClaims.length === 0;
  useEffect(() => {
    if (passed) void recheckSession().catch(console.error);
  }, [passed]);
  return children;
}

/**
 * The SDK's access-denied screen (with its Sign out button) and a sentence saying why: for `st-t-dmns`,
 * which email domains the organisation admits, and, when the sign-in has no verified address, a way to
 * verify it.
 */
export function DeniedScreen({ validationError }: { validationError: ClaimValidationError }) {
  const { t } = useTranslation();
  const { key, values } = accessDeniedText(validationError);
  return (
    <>
      <AccessDeniedScreen error={t(key, values)} />
      {key === 'auth.accessDenied.allowedDomainsNoEmail' && <VerifyToEnter />}
    </>
  );
}

/**
 * The SDK's own guard: re-validates the session's claims (st-mfa, st-ev, st-t-dmns) and sends the user
 * to the second-factor or verification screen when one fails, or shows the access-denied screen when
 * the tenant does not admit their email domain; on an expired session it goes to /auth.
 */
export default function SessionGuard({ children }: { children: ReactNode }) {
  return (
    <SessionAuth
      accessDeniedScreen={DeniedScreen}
      overrideGlobalClaimValidators={guardClaimValidators(emailVerificationModeNow())}
    >
      <ClaimsPassed>{children}</ClaimsPassed>
    </SessionAuth>
  );
}
