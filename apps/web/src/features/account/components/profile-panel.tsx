import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useState } from 'react';
import { paths } from '@/config/paths';
import { signOut } from '@/lib/auth';
import { buttonClass } from '@/components/ui/button-link';

/** Who is signed in (email, or why it could not be loaded), and signing out of this device. */
export function ProfilePanel({ email, error }: { email: string | null; error?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const onSignOut = async () => {
    setPending(true);
    try {
      await signOut();
      void navigate(paths.home);
    } finally {
      setPending(false);
    }
  };
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
        <button
          type="button"
          className={buttonClass('secondary')}
          disabled={pending}
          onClick={() => void onSignOut()}
        >
          {t('header.signOut')}
        </button>
      </div>
    </section>
  );
}
