import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView, ModelInfo } from '@lumina/contracts';
import { CloseIcon } from '@/components/ui/icons';
import { useCancelJob } from '../api/cancel-job';
import { isActiveJob } from '../api/get-progress';

const statusTone: Record<JobView['status'], string> = {
  queued: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  running: 'bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300',
  succeeded: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300',
  failed: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
  cancelled: 'bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400',
};

const barTone: Record<JobView['status'], string> = {
  queued: 'bg-zinc-400 dark:bg-zinc-500',
  running: 'bg-gradient-to-r from-brand-500 to-fuchsia-500',
  succeeded: 'bg-emerald-500',
  failed: 'bg-red-500',
  cancelled: 'bg-zinc-400 dark:bg-zinc-600',
};

/** How far along a job is, 0–100, or null when the provider reports no percentage (shown as indeterminate). */
export function jobPercent(
  job: Pick<JobView, 'status' | 'percent' | 'image_ids' | 'num_images'>,
): number | null {
  if (job.status === 'succeeded') return 100;
  if (job.status === 'queued') return 0;
  if (job.percent !== null) return job.percent;
  if (job.status === 'running' && job.image_ids.length > 0)
    return Math.round((job.image_ids.length / Math.max(1, job.num_images)) * 100);
  return job.status === 'running' ? null : 0;
}

export function JobCard({
  job,
  model,
  children,
  onCancelled,
}: {
  job: JobView;
  model: ModelInfo | undefined;
  /** The job's results (rendered by the page); shown under the progress bar. */
  children?: ReactNode;
  onCancelled?: (job: JobView) => void;
}) {
  const { t } = useTranslation();
  const cancel = useCancelJob({ onCancelled });
  const percent = jobPercent(job);
  const active = isActiveJob(job);
  return (
    <article
      data-testid="job-card"
      data-job-id={job.id}
      data-status={job.status}
      aria-label={job.prompt ?? t('generate.job.untitled')}
      className="rounded-3xl border border-zinc-200 bg-white p-4 shadow-sm sm:p-5 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="line-clamp-2 text-sm font-medium text-pretty">
            {job.prompt ?? t('generate.job.untitled')}
          </p>
          <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-zinc-500 dark:text-zinc-400">
            <span>{model?.display_name ?? job.model}</span>
            <span aria-hidden="true">·</span>
            <span>{t('generate.job.images', { count: job.num_images })}</span>
            <span aria-hidden="true">·</span>
            <span className="tabular-nums">{t('generate.job.cost', { count: job.cost })}</span>
          </p>
        </div>
        <span
          data-testid="job-status"
          className={`shrink-0 rounded-full px-2.5 py-1 text-xs font-semibold ${statusTone[job.status]}`}
        >
          {t(`generate.status.${job.status}`)}
        </span>
        {active && (
          <button
            type="button"
            onClick={() => cancel.mutate(job.id)}
            disabled={cancel.isPending}
            aria-label={t('generate.job.cancel')}
            title={t('generate.job.cancel')}
            className="-mt-1 -mr-1 inline-flex size-8 shrink-0 items-center justify-center rounded-full text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 disabled:opacity-50 dark:hover:bg-zinc-800 dark:hover:text-white"
          >
            <CloseIcon />
          </button>
        )}
      </div>

      {job.status !== 'failed' && (
        <div className="mt-4">
          <div
            role="progressbar"
            aria-label={t('generate.job.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
            aria-valuetext={percent === null ? t(`generate.status.${job.status}`) : `${percent}%`}
            data-testid="job-progress"
            className="relative h-2 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
          >
            {percent === null ? (
              <div
                className={`absolute inset-0 animate-pulse rounded-full opacity-70 ${barTone[job.status]}`}
              />
            ) : (
              <div
                className={`h-full rounded-full transition-[width] duration-500 ease-out ${barTone[job.status]}`}
                style={{ width: `${percent}%` }}
              />
            )}
          </div>
          <p className="mt-2 flex min-h-5 flex-wrap items-center justify-between gap-2 text-xs text-zinc-500 dark:text-zinc-400">
            <span data-testid="job-detail">
              {job.status === 'queued' && job.queue_position !== null
                ? t('generate.job.queuePosition', { position: job.queue_position })
                : job.status === 'queued'
                  ? t('generate.job.waiting')
                  : job.status === 'running'
                    ? (job.message ?? t('generate.job.running'))
                    : job.status === 'succeeded'
                      ? t('generate.job.done')
                      : job.status === 'cancelled'
                        ? t('generate.job.cancelled')
                        : null}
            </span>
            {percent !== null && active && <span className="tabular-nums">{percent}%</span>}
          </p>
        </div>
      )}

      {job.status === 'failed' && (
        <div
          role="alert"
          className="mt-3 rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200 ring-inset dark:bg-red-950/40 dark:text-red-100 dark:ring-red-900/60"
        >
          <p>{job.error ?? t('generate.job.failed')}</p>
          {job.refunded && (
            <p className="mt-1 font-semibold" data-testid="job-refunded">
              {t('generate.job.refunded', { count: job.cost })}
            </p>
          )}
        </div>
      )}
      {job.status === 'cancelled' && job.refunded && (
        <p
          className="mt-2 text-xs font-medium text-emerald-700 dark:text-emerald-300"
          data-testid="job-refunded"
        >
          {t('generate.job.refunded', { count: job.cost })}
        </p>
      )}
      {cancel.error && (
        <p role="alert" className="mt-2 text-sm text-red-600 dark:text-red-400">
          {cancel.error instanceof Error ? cancel.error.message : t('errors.codes.INTERNAL')}
        </p>
      )}

      {children && <div className="mt-4">{children}</div>}
    </article>
  );
}
