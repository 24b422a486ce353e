import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { useDocumentTitle } from '@/components/layouts/use-document-title';
import { BrainIcon } from '@/components/ui/icons';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useCreditBalance, useRefreshCreditBalance } from '@/features/credits/api/get-credit-balance';
import { useModels } from '@/features/generate/api/get-models';
import { TrainingView } from '@/features/training/components/training-view';
import { useTrainingFeed } from '@/app/use-training-feed';

/**
 * The Training page: the training feature, with the catalogue's train models and the live job feed
 * (generate's progress stream, shared by every kind of job) and the balance (credits) composed in.
 */
export default function TrainingRoute() {
  const { t } = useTranslation();
  const title = t('pages.training.title');
  useDocumentTitle(title);
  const balance = useCreditBalance();
  const refreshBalance = useRefreshCreditBalance();
  const models = useModels();
  const jobs = useTrainingFeed(refreshBalance);
  return (
    <div className="flex flex-col gap-8">
      <PageHeader icon={<BrainIcon />} title={title} description={t('pages.training.description')} />
      {models.isPending ? (
        <LoadingBlock />
      ) : models.isError ? (
        <QueryError error={models.error} onRetry={() => void models.refetch()} />
      ) : (
        <TrainingView
          models={models.data.models}
          balance={balance.data?.balance}
          jobs={jobs}
          onCreditsChanged={refreshBalance}
        />
      )}
    </div>
  );
}
