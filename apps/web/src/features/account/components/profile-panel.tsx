import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useState } from 'react';
import { paths } from '@/config/paths';
import { useSignOut } from '@/lib/use-sign-out';
import { useSignOutEverywhere } from '../api/sign-out-everywhere';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/** Who is signed in (email, or why it could not be loaded), signing out of this device or of all of them. */
export function ProfilePanel({ email, error }: { email: string | null; error?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { signOut: onSignOut, pending } = useSignOut();
  const [confirming, setConfirming] = useState(false);
  const everywhere = useSignOutEverywhere();
  const onSignOutEverywhere = () =>
    everywhere.mutate(undefined, { onSuccess: () => void navigate(paths.home) });
  const busy = pending || everywhere.isPending;
  return (
    <section
      aria-labelledby="profile-heading"
      className="rounded-2xl border border-zinc-200 bg-white p-5 sm:p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id="profile-heading" className="text-lg font-semibold">
        {t('account.profileTitle')}
      </h2>
      <dl className="mt-4 grid gap-1 text-sm">
        <dt className="text-zinc-500 dark:text-zinc-400">{t('account.email')}</dt>
        <dd className="font-medium break-all" data-testid="account-email">
          {email ?? error ?? '…'}
        </dd>
      </dl>
      <div className="mt-5 flex flex-wrap gap-3">
        <Button look="secondary" type="button" disabled={busy} onClick={() => void onSignOut()}>
          {t('header.signOut')}
        </Button>
        {!confirming && (
          <Button look="secondary" type="button" disabled={busy} onClick={() => setConfirming(true)}>
            {t('account.signOutEverywhere')}
          </Button>
        )}
      </div>
      {confirming && (
        <div
          className="mt-4 rounded-xl border border-zinc-200 bg-zinc-50 p-4 text-sm dark:border-zinc-800 dark:bg-zinc-950/40"
          data-testid="sign-out-everywhere-confirm"
        >
          <p>{t('account.signOutEverywhereBody')}</p>
          <div className="mt-3 flex flex-wrap gap-3">
            <Button look="primary" type="button" disabled={busy} onClick={onSignOutEverywhere}>
              {t('account.signOutEverywhereConfirm')}
            </Button>
            <Button
              look="secondary"
              type="button"
              disabled={everywhere.isPending}
              onClick={() => setConfirming(false)}
            >
              {t('account.cancel')}
            </Button>
          </div>
        </div>
      )}
      {everywhere.isError && (
        <Alert tone="error" inline className="mt-3">
          {t('account.signOutEverywhereFailed')}
        </Alert>
      )}
    </section>
  );
}
