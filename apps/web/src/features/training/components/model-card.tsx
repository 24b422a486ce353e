import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { JobView, TrainedModelView } from '@lumina/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { buttonClass } from '@/components/ui/button-link';
import { BrainIcon, ChevronIcon, SparklesIcon, TrashIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { useDeleteTrainedModel } from '../api/my-models';
import { trainingJob } from '../utils/training-job';
import { ModelImages } from './model-images';
import { ModelName } from './model-name';
import { TrainingProgress } from './training-progress';

const statusTone: Record<TrainedModelView['status'], string> = {
  training: 'bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300',
  ready: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300',
  failed: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
  cancelled: 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300',
};

/**
 * One trained model: cover, name (renamed in place), status, trigger word and facts; a ready one offers
 * "Generate with this model" and its images, a training one its live progress and Cancel; Delete asks first.
 */
export function ModelCard({
  model,
  jobs,
  onRefund,
}: {
  model: TrainedModelView;
  jobs: readonly JobView[] | undefined;
  onRefund: () => void;
}) {
  const { t, i18n } = useTranslation();
  const ids = useId();
  const [showImages, setShowImages] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteTrainedModel();
  const job = model.status === 'training' ? trainingJob(model, jobs) : null;
  const created = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(
    new Date(model.created_at),
  );

  return (
    <article
      aria-labelledby={`${ids}-name`}
      data-testid="trained-model"
      data-model-id={model.id}
      data-status={model.status}
      className="flex flex-col overflow-hidden rounded-3xl border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex gap-4 p-4 sm:p-5">
        <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-2xl bg-zinc-100 text-3xl text-zinc-400 sm:size-24 dark:bg-zinc-800">
          {model.cover_url ? (
            <img
              src={model.cover_url}
              alt={t('training.models.coverAlt', { name: model.name })}
              className="size-full object-cover"
              data-testid="model-cover"
            />
          ) : (
            <BrainIcon />
          )}
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <ModelName model={model} headingId={`${ids}-name`} />
            <span
              data-testid="model-status"
              className={`shrink-0 rounded-full px-2.5 py-1 text-xs font-semibold ${statusTone[model.status]}`}
            >
              {t(`training.models.status.${model.status}`)}
            </span>
          </div>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {t('training.models.triggerLabel')}{' '}
            <code
              className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100"
              data-testid="model-trigger"
            >
              {model.trigger_word}
            </code>
          </p>
          <p className="flex flex-wrap gap-x-2 text-xs text-zinc-500 dark:text-zinc-400">
            <span>{t(`training.form.subjects.${model.subject}`)}</span>
            <span aria-hidden="true">·</span>
            <span>{t(`generate.providers.${model.provider}`)}</span>
            <span aria-hidden="true">·</span>
            <span>{t('training.models.photos', { count: model.image_count })}</span>
            <span aria-hidden="true">·</span>
            <span>{t('training.models.steps', { count: model.steps })}</span>
            <span aria-hidden="true">·</span>
            <time dateTime={model.created_at}>{t('training.models.created', { date: created })}</time>
          </p>
        </div>
      </div>

      <div className="flex flex-col gap-3 border-t border-zinc-100 px-4 py-3 sm:px-5 dark:border-zinc-800">
        {job && <TrainingProgress job={job} onCancelled={(j) => j.refunded && onRefund()} />}
        {model.status === 'failed' && (
          <Alert tone="error" live={false} testId="model-error">
            {model.error ?? t('training.job.failed')} {t('training.job.refundedAny')}
          </Alert>
        )}
        <div className="flex flex-wrap items-center gap-2">
          {model.status === 'ready' && (
            <>
              <Link
                to={`${paths.generate}?model=${encodeURIComponent(model.id)}`}
                className={buttonClass('primary')}
                data-testid="model-generate"
              >
                <SparklesIcon />
                {t('training.models.generate')}
              </Link>
              <Button
                look="outline"
                aria-expanded={showImages}
                aria-controls={showImages ? `${ids}-images` : undefined}
                onClick={() => setShowImages((v) => !v)}
                data-testid="model-images-toggle"
              >
                <ChevronIcon className={showImages ? 'rotate-180' : ''} />
                {t('training.models.images')}
              </Button>
            </>
          )}
          <Button
            look="outline"
            className="ml-auto text-red-700 dark:text-red-400"
            onClick={() => setConfirming(true)}
            data-testid="model-delete"
            aria-label={t('training.models.deleteLabel', { name: model.name })}
          >
            <TrashIcon />
            {t('training.models.delete')}
          </Button>
        </div>
        {showImages && (
          <div id={`${ids}-images`}>
            <ModelImages modelId={model.id} />
          </div>
        )}
      </div>

      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t('training.models.confirmTitle', { name: model.name })}
        body={
          model.status === 'training'
            ? t('training.models.confirmTraining')
            : t('training.models.confirmBody')
        }
        error={remove.error?.message}
        keepLabel={t('training.models.keep')}
        confirmLabel={t('training.models.confirmDelete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(model.id, { onSuccess: () => setConfirming(false) })}
        testId="model-delete"
      />
    </article>
  );
}
