import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useOnboarding } from '../api/get-onboarding';
import { AboutYouForm } from './about-you-form';

/**
 * The account page's "About you": the onboarding answers, shown and edited with the wizard's own form
 * (the same request, POST /api/onboarding). Composed by the account route, as features do not import
 * each other.
 */
export function AboutYouPanel() {
  const { t } = useTranslation();
  const answers = useOnboarding();
  const [saved, setSaved] = useState(false);
  return (
    <section
      aria-labelledby="about-you-heading"
      className="rounded-2xl border border-zinc-200 bg-white p-5 sm:p-6 lg:col-span-2 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="about-you-panel"
    >
      <h2 id="about-you-heading" className="text-lg font-semibold">
        {t('account.aboutYou.heading')}
      </h2>
      <p className="mt-1 mb-4 text-sm text-zinc-600 dark:text-zinc-400">{t('account.aboutYou.body')}</p>
      {answers.isPending ? (
        <LoadingBlock className="py-8" />
      ) : answers.isError ? (
        <QueryError error={answers.error} onRetry={() => void answers.refetch()} compact />
      ) : (
        <AboutYouForm
          initial={answers.data}
          submitLabel={t('onboarding.about.saveAccount')}
          onSaved={() => setSaved(true)}
          testId="account-about-you-form"
          actions={
            saved && (
              <Alert tone="success" inline testId="about-you-saved">
                {t('onboarding.about.saved')}
              </Alert>
            )
          }
        />
      )}
    </section>
  );
}
