import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { AuthRoutes } from '@/features/auth/components/auth-routes';
import { ReferralNotice } from '@/features/referrals/components/referral-notice';

/** /auth/*: the SuperTokens prebuilt screens. This module (and the SDK's UI) loads only when /auth opens. */
export default function AuthRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('pages.auth.title'));
  return (
    <div
      className="relative isolate -my-4 flex min-h-[60dvh] flex-col items-center sm:-my-6"
      data-testid="auth-page"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 mx-auto h-64 max-w-xl rounded-full bg-gradient-to-r from-brand-400/25 via-fuchsia-400/15 to-sky-400/15 blur-3xl dark:from-brand-600/20 dark:via-fuchsia-600/10 dark:to-sky-600/10"
      />
      <h1 className="sr-only">{t('pages.auth.title')}</h1>
      {/* Who invited the visitor (?ref=), above the sign-in card. */}
      <ErrorBoundary fallback={() => null}>
        <ReferralNotice className="mb-4 w-full max-w-[420px]" />
      </ErrorBoundary>
      <div className="w-full">
        <AuthRoutes />
      </div>
    </div>
  );
}
