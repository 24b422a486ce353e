import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import EmailVerification from 'supertokens-auth-react/recipe/emailverification';
import { Button } from '@/components/ui/button';

type State = 'checking' | 'hidden' | 'ready' | 'sending' | 'sent' | 'failed';

/**
 * Beside the access-denied screen of a tenant that admits only some email domains, when this sign-in's
 * address is not verified (a passkey sign-up, a provider that does not vouch for the address): the
 * tenant cannot tell the domain yet, so offer the link that verifies it. Opening it in this browser
 * updates the session's claims (`/user/email/verify`), and the person is let in. Without it the screen
 * was a dead end: signing out and in again changes nothing about an unverified address.
 */
export function VerifyToEnter() {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('checking');

  useEffect(() => {
    let live = true;
    // A sign-in without any email (a phone number) counts as verified: then there is nothing to offer.
    EmailVerification.isEmailVerified()
      .then((r) => live && setState(r.isVerified ? 'hidden' : 'ready'))
      .catch(() => live && setState('hidden'));
    return () => {
      live = false;
    };
  }, []);

  const send = async () => {
    setState('sending');
    try {
      const r = await EmailVerification.sendVerificationEmail();
      // Verified meanwhile (in another tab): the next check of the session lets the person in.
      if (r.status === 'EMAIL_ALREADY_VERIFIED_ERROR') window.location.reload();
      else setState('sent');
    } catch {
      setState('failed');
    }
  };

  if (state === 'checking' || state === 'hidden') return null;
  return (
    <section
      aria-labelledby="verify-to-enter-title"
      data-testid="verify-to-enter"
      className="mx-auto mb-10 w-full max-w-md rounded-2xl border border-zinc-200 bg-white p-5 text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id="verify-to-enter-title" className="text-base font-semibold">
        {t('auth.verifyToEnter.title')}
      </h2>
      <p className="mt-1 text-zinc-600 dark:text-zinc-400">{t('auth.verifyToEnter.body')}</p>
      {state === 'sent' ? (
        <p role="status" className="mt-3 font-medium text-emerald-700 dark:text-emerald-400">
          {t('auth.verifyToEnter.sent')}
        </p>
      ) : (
        <>
          <Button className="mt-3" disabled={state === 'sending'} onClick={() => void send()}>
            {state === 'sending' ? t('auth.verifyToEnter.sending') : t('auth.verifyToEnter.send')}
          </Button>
          {state === 'failed' && (
            <p role="alert" className="mt-2 text-red-700 dark:text-red-400">
              {t('auth.verifyToEnter.failed')}
            </p>
          )}
        </>
      )}
    </section>
  );
}
