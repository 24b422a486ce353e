import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { CompassIcon } from '@/components/ui/icons';
import { OnboardingWizard } from '@/features/onboarding/components/onboarding-wizard';

export default function OnboardingRoute() {
  const { t } = useTranslation();
  const title = t('pages.onboarding.title');
  useDocumentTitle(title);
  return (
    <div className="mx-auto flex w-full max-w-3xl min-w-0 flex-col gap-8">
      <PageHeader icon={<CompassIcon />} title={title} description={t('pages.onboarding.description')} />
      <ErrorBoundary>
        <OnboardingWizard />
      </ErrorBoundary>
    </div>
  );
}
