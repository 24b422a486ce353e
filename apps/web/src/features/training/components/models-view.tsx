import { useTranslation } from 'react-i18next';
import type { JobView } from '@lumina/contracts';
import { buttonClass } from '@/components/ui/button-link';
import { BrainIcon } from '@/components/ui/icons';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useMyModels } from '../api/my-models';
import { ModelCard } from './model-card';

/** The Models page: the person's trained models, newest first, in every state. */
export function ModelsView({
  jobs,
  onRefund,
}: {
  jobs: readonly JobView[] | undefined;
  onRefund: () => void;
}) {
  const { t } = useTranslation();
  const models = useMyModels();
  if (models.isPending) return <LoadingBlock />;
  if (models.isError) return <QueryError error={models.error} onRetry={() => void models.refetch()} />;
  if (models.data.models.length === 0)
    return (
      <div
        data-testid="models-empty"
        className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-zinc-300 px-6 py-16 text-center dark:border-zinc-700"
      >
        <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-100 text-2xl text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
          <BrainIcon />
        </span>
        <p className="font-semibold">{t('training.models.emptyTitle')}</p>
        <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">{t('training.models.emptyBody')}</p>
        <Link to={paths.training} className={buttonClass('primary')}>
          {t('training.models.trainOne')}
        </Link>
      </div>
    );
  return (
    <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2" data-testid="trained-models">
      {models.data.models.map((model) => (
        <li key={model.id} className="min-w-0">
          <ModelCard model={model} jobs={jobs} onRefund={onRefund} />
        </li>
      ))}
    </ul>
  );
}
