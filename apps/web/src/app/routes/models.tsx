import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { PaletteIcon } from '@/components/ui/icons';
import { useRefreshCreditBalance } from '@/features/credits/api/get-credit-balance';
import { ModelsView } from '@/features/training/components/models-view';
import { useTrainingFeed } from '@/app/use-training-feed';

/** The Models page: the person's trained models (training), with the live job feed and the balance composed in. */
export default function ModelsRoute() {
  const { t } = useTranslation();
  const title = t('pages.models.title');
  useDocumentTitle(title);
  const refreshBalance = useRefreshCreditBalance();
  const jobs = useTrainingFeed(refreshBalance);
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<PaletteIcon />} title={title} description={t('pages.models.description')} />
      <ModelsView jobs={jobs} onRefund={() => refreshBalance()} />
    </div>
  );
}
