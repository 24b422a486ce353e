import { useTranslation } from 'react-i18next';
import type { JobView } from '@lumina/contracts';
import { CloseIcon } from '@/components/ui/icons';
import { useCancelJob } from '../api/cancel-job';

const statusTone: Record<JobView['status'], string> = {
  queued: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  running: 'bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300',
  succeeded: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300',
  failed: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
  cancelled: 'bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400',
};

export const isActiveStatus = (status: JobView['status']) => status === 'queued' || status === 'running';

/** The job's state as far as the studio knows it: the progress feed's, else what the server said on accepting it. */
export type RunState = Pick<
  JobView,
  'id' | 'status' | 'percent' | 'message' | 'queue_position' | 'error' | 'refunded' | 'cost' | 'image_ids'
>;

/** 0–100, or null when running without a reported percentage (an indeterminate bar). */
export function runPercent(job: Pick<RunState, 'status' | 'percent'>): number | null {
  if (job.status === 'succeeded') return 100;
  if (job.status === 'queued') return 0;
  if (job.percent !== null) return job.percent;
  return job.status === 'running' ? null : 0;
}

/** Live progress of a tool run: status, percent, message or queue position, cancel, and the refund on failure. */
export function RunProgress({ job, onCancelled }: { job: RunState; onCancelled?: (job: JobView) => void }) {
  const { t } = useTranslation();
  const cancel = useCancelJob({ onCancelled });
  const percent = runPercent(job);
  const active = isActiveStatus(job.status);
  const detail =
    job.status === 'queued'
      ? job.queue_position !== null
        ? t('studio.run.queuePosition', { position: job.queue_position })
        : t('studio.run.waiting')
      : job.status === 'running'
        ? (job.message ?? t('studio.run.running'))
        : job.status === 'succeeded'
          ? t('studio.run.done')
          : job.status === 'cancelled'
            ? t('studio.run.cancelled')
            : null;
  return (
    <div
      data-testid="run-progress"
      data-status={job.status}
      data-job-id={job.id}
      className="flex flex-col gap-3"
    >
      <div className="flex items-center justify-between gap-3">
        <span
          data-testid="run-status"
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ${statusTone[job.status]}`}
        >
          {t(`studio.run.status.${job.status}`)}
        </span>
        <span className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
          {t('studio.run.cost', { count: job.cost })}
        </span>
        {active && (
          <button
            type="button"
            onClick={() => cancel.mutate(job.id)}
            disabled={cancel.isPending}
            data-testid="run-cancel"
            className="ml-auto inline-flex items-center gap-1.5 rounded-xl border border-zinc-300 px-3 py-1.5 text-sm font-semibold hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            <CloseIcon />
            {t('studio.run.cancel')}
          </button>
        )}
      </div>
      {job.status !== 'failed' && (
        <div>
          <div
            role="progressbar"
            aria-label={t('studio.run.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
            aria-valuetext={percent === null ? t(`studio.run.status.${job.status}`) : `${percent}%`}
            data-testid="run-progressbar"
            className="relative h-2 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
          >
            {percent === null ? (
              <div className="absolute inset-0 animate-pulse rounded-full bg-gradient-to-r from-brand-500 to-fuchsia-500 opacity-70" />
            ) : (
              <div
                className={`h-full rounded-full transition-[width] duration-500 ease-out ${
                  job.status === 'succeeded'
                    ? 'bg-emerald-500'
                    : job.status === 'cancelled'
                      ? 'bg-zinc-400 dark:bg-zinc-600'
                      : 'bg-gradient-to-r from-brand-500 to-fuchsia-500'
                }`}
                style={{ width: `${percent}%` }}
              />
            )}
          </div>
          <p className="mt-2 flex min-h-5 flex-wrap items-center justify-between gap-2 text-xs text-zinc-500 dark:text-zinc-400">
            <span data-testid="run-detail" aria-live="polite">
              {detail}
            </span>
            {percent !== null && active && <span className="tabular-nums">{percent}%</span>}
          </p>
        </div>
      )}
      {job.status === 'failed' && (
        <div
          role="alert"
          data-testid="run-failed"
          className="rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200 ring-inset dark:bg-red-950/40 dark:text-red-100 dark:ring-red-900/60"
        >
          <p>{job.error ?? t('studio.run.failed')}</p>
          {job.refunded && (
            <p className="mt-1 font-semibold" data-testid="run-refunded">
              {t('studio.run.refunded', { count: job.cost })}
            </p>
          )}
        </div>
      )}
      {job.status === 'cancelled' && job.refunded && (
        <p className="text-xs font-medium text-emerald-700 dark:text-emerald-300" data-testid="run-refunded">
          {t('studio.run.refunded', { count: job.cost })}
        </p>
      )}
      {cancel.error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {cancel.error.message}
        </p>
      )}
    </div>
  );
}
