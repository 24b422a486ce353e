import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView } from '@lumina/contracts';
import { Button } from '@/components/ui/button';
import { CloseIcon } from '@/components/ui/icons';
import { useCancelJob } from '@/lib/jobs/cancel-job';
import { isActiveJob } from '@/lib/jobs/job-cache';

/** What the status needs of a job: the progress feed's view, or what the server said on accepting it. */
export type JobState = Pick<
  JobView,
  'id' | 'status' | 'percent' | 'message' | 'queue_position' | 'error' | 'refunded' | 'cost' | 'image_ids'
> &
  Partial<Pick<JobView, 'num_images' | 'purchase_id' | 'preview_url' | 'moved'>>;

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

/**
 * How far along a job is, 0–100, or null when the provider reports no percentage (an indeterminate bar).
 * Without a percentage, a running job that knows how many images it makes counts the finished ones.
 */
export function jobPercent(
  job: Pick<JobState, 'status' | 'percent' | 'image_ids' | 'num_images'>,
): number | null {
  if (job.status === 'succeeded') return 100;
  if (job.status === 'queued') return 0;
  if (job.percent !== null) return job.percent;
  if (job.status === 'running' && job.num_images !== undefined && job.image_ids.length > 0)
    return Math.round((job.image_ids.length / Math.max(1, job.num_images)) * 100);
  return job.status === 'running' ? null : 0;
}

/**
 * Where the status is shown. Generate's card and Studio's result panel word it differently and keep
 * their own test ids (the browser tests name them), so each look is one row of this table.
 */
const looks = {
  card: {
    copy: 'generate.job',
    status: 'generate.status',
    ids: {
      status: 'job-status',
      cancel: undefined,
      bar: 'job-progress',
      preview: 'job-preview',
      detail: 'job-detail',
      failed: undefined,
      refunded: 'job-refunded',
    },
    root: '',
    header: 'flex items-start gap-3',
    badge: 'shrink-0',
    progress: 'mt-4',
    failed: 'mt-3',
    note: 'mt-2',
    liveDetail: false,
  },
  panel: {
    copy: 'studio.run',
    status: 'studio.run.status',
    ids: {
      status: 'run-status',
      cancel: 'run-cancel',
      bar: 'run-progressbar',
      preview: 'run-preview',
      detail: 'run-detail',
      failed: 'run-failed',
      refunded: 'run-refunded',
    },
    root: 'flex flex-col gap-3',
    header: 'flex items-center justify-between gap-3',
    badge: '',
    progress: '',
    failed: '',
    note: '',
    liveDetail: true,
  },
  /** A training on the Training and Models pages. */
  training: {
    copy: 'training.job',
    status: 'training.job.status',
    ids: {
      status: 'training-status',
      cancel: 'training-cancel',
      bar: 'training-progressbar',
      preview: 'training-preview',
      detail: 'training-detail',
      failed: 'training-failed',
      refunded: 'training-refunded',
    },
    root: 'flex flex-col gap-3',
    header: 'flex items-center justify-between gap-3',
    badge: '',
    progress: '',
    failed: '',
    note: '',
    liveDetail: true,
  },
} as const;

export type JobStatusLook = keyof typeof looks;

/**
 * A job's live status: badge, progress bar with the queue position or the provider's message, cancel,
 * the failure and the refund. `summary` (the card's prompt and facts) leads the header row; the panel
 * and training looks show the cost there instead.
 */
export function JobStatus({
  job,
  look,
  summary,
  onCancelled,
}: {
  job: JobState;
  look: JobStatusLook;
  summary?: ReactNode;
  onCancelled?: (job: JobView) => void;
}) {
  const { t } = useTranslation();
  const cancel = useCancelJob({ onCancelled });
  const l = looks[look];
  const percent = jobPercent(job);
  const active = isActiveJob(job);
  const statusText = t(`${l.status}.${job.status}`);
  const detail =
    job.status === 'queued'
      ? job.queue_position !== null
        ? t(`${l.copy}.queuePosition`, { position: job.queue_position })
        : t(`${l.copy}.waiting`)
      : job.status === 'running'
        ? (job.message ?? t(`${l.copy}.running`))
        : job.status === 'succeeded'
          ? t(`${l.copy}.done`)
          : job.status === 'cancelled'
            ? t(`${l.copy}.cancelled`)
            : null;
  const badge = (
    <span
      data-testid={l.ids.status}
      className={`${l.badge} rounded-full px-2.5 py-1 text-xs font-semibold ${statusTone[job.status]}`.trim()}
    >
      {statusText}
    </span>
  );
  // A photo shoot's stage is not cancelled on its own (the server refuses it too).
  const cancelButton =
    active &&
    !job.purchase_id &&
    (look === 'card' ? (
      <Button
        look="icon"
        onClick={() => cancel.mutate(job.id)}
        disabled={cancel.isPending}
        aria-label={t(`${l.copy}.cancel`)}
        title={t(`${l.copy}.cancel`)}
        className="-mt-1 -mr-1"
      >
        <CloseIcon />
      </Button>
    ) : (
      <Button
        look="outline"
        onClick={() => cancel.mutate(job.id)}
        disabled={cancel.isPending}
        data-testid={l.ids.cancel}
        className="ml-auto"
      >
        <CloseIcon />
        {t(`${l.copy}.cancel`)}
      </Button>
    ));
  const content = (
    <>
      <div className={l.header}>
        {summary}
        {badge}
        {look !== 'card' && (
          <span className="text-xs text-zinc-500 tabular-nums dark:text-zinc-400">
            {t(`${l.copy}.cost`, { count: job.cost })}
          </span>
        )}
        {cancelButton}
      </div>
      {job.status !== 'failed' && (
        <div className={l.progress || undefined}>
          <div
            role="progressbar"
            aria-label={t(`${l.copy}.progress`)}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
            aria-valuetext={percent === null ? statusText : `${percent}%`}
            data-testid={l.ids.bar}
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
            <span data-testid={l.ids.detail} aria-live={l.liveDetail ? 'polite' : undefined}>
              {detail}
            </span>
            {percent !== null && active && <span className="tabular-nums">{percent}%</span>}
          </p>
          {job.status === 'running' && job.preview_url && (
            // The provider's live look at the image being made (low resolution, replaced as it refines).
            <img
              src={job.preview_url}
              alt={t(`${l.copy}.preview`)}
              data-testid={l.ids.preview}
              className="mt-3 max-h-64 w-auto rounded-xl object-contain ring-1 ring-zinc-200 dark:ring-zinc-800"
            />
          )}
        </div>
      )}
      {job.status === 'failed' && (
        <div
          role="alert"
          data-testid={l.ids.failed}
          className={`${l.failed} rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-900 ring-1 ring-red-200 ring-inset dark:bg-red-950/40 dark:text-red-100 dark:ring-red-900/60`.trim()}
        >
          <p>{job.error ?? t(`${l.copy}.failed`)}</p>
          {job.refunded && (
            <p className="mt-1 font-semibold" data-testid={l.ids.refunded}>
              {t(`${l.copy}.refunded`, { count: job.cost })}
            </p>
          )}
        </div>
      )}
      {job.moved && (
        <p data-testid="job-moved" className={`${l.note} text-xs text-zinc-500 dark:text-zinc-400`.trim()}>
          {job.moved}
        </p>
      )}
      {job.status === 'cancelled' && job.refunded && (
        <p
          className={`${l.note} text-xs font-medium text-emerald-700 dark:text-emerald-300`.trim()}
          data-testid={l.ids.refunded}
        >
          {t(`${l.copy}.refunded`, { count: job.cost })}
        </p>
      )}
      {cancel.error && (
        <p role="alert" className={`${l.note} text-sm text-red-600 dark:text-red-400`.trim()}>
          {cancel.error.message || t('errors.codes.INTERNAL')}
        </p>
      )}
    </>
  );
  if (look === 'card') return content;
  return (
    <div
      data-testid={look === 'panel' ? 'run-progress' : 'training-progress'}
      data-status={job.status}
      data-job-id={job.id}
      className={l.root}
    >
      {content}
    </div>
  );
}
