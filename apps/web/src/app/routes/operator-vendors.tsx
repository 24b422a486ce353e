import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { UserIcon } from '@/components/ui/icons';
import { VendorsView } from '@/features/operator/components/vendors-view';

export default function OperatorVendorsRoute() {
  const { t } = useTranslation();
  const title = t('pages.operatorVendors.title');
  useDocumentTitle(title);
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<UserIcon />} title={title} description={t('pages.operatorVendors.description')} />
      <ErrorBoundary>
        <VendorsView />
      </ErrorBoundary>
    </div>
  );
}
