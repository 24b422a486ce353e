import { Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Header } from '@/components/layouts/header';
import { Footer } from '@/components/layouts/footer';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { CreditBalance } from '@/features/credits/components/credit-balance';
import { SystemStatus } from '@/features/system/components/system-status';
import { UserMenu } from '@/features/auth/components/user-menu';
import { ReferralCapture } from '@/features/referrals/components/referral-capture';
import { AnalyticsTracker } from '../analytics-tracker';

/** The app frame: header, the routed page (with its own error boundary) and footer. */
export default function RootLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      <AnalyticsTracker />
      <ReferralCapture />
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-3 focus:py-2 focus:shadow dark:focus:bg-zinc-900"
      >
        {t('app.skipToContent')}
      </a>
      <Header
        balance={<CreditBalance />}
        renderAccount={(placement, closeMenu) => (
          <ErrorBoundary fallback={() => null}>
            <UserMenu placement={placement} onNavigate={closeMenu} />
          </ErrorBoundary>
        )}
      />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6 sm:py-14">
        <ErrorBoundary key={pathname}>
          <Outlet />
        </ErrorBoundary>
      </main>
      <ErrorBoundary fallback={() => null}>
        <Footer status={<SystemStatus />} />
      </ErrorBoundary>
    </div>
  );
}
