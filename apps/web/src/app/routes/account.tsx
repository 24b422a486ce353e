import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { UserIcon } from '@/components/ui/icons';
import { PasskeysPanel } from '@/features/account/components/passkeys-panel';
import { ProfilePanel } from '@/features/account/components/profile-panel';
import { TwoStepPanel } from '@/features/account/components/two-step-panel';
import { useUser } from '@/features/auth/api/get-user';
import { AboutYouPanel } from '@/features/onboarding/components/about-you-panel';

export default function AccountRoute() {
  const { t } = useTranslation();
  const title = t('pages.account.title');
  const { profile, error } = useUser();
  useDocumentTitle(title);
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<UserIcon />} title={title} description={t('pages.account.description')} />
      <div className="grid gap-6 lg:grid-cols-2">
        <ErrorBoundary>
          <ProfilePanel email={profile.email} error={error && t(`auth.profileErrors.${error}`)} />
        </ErrorBoundary>
        <ErrorBoundary>
          <TwoStepPanel />
        </ErrorBoundary>
        <ErrorBoundary>
          <PasskeysPanel email={profile.email} />
        </ErrorBoundary>
        <ErrorBoundary>
          <AboutYouPanel />
        </ErrorBoundary>
      </div>
    </div>
  );
}
