import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView, ModelInfo } from '@lumina/contracts';
import { JobStatus } from '@/components/jobs/job-status';

/** One Generate job: its prompt and facts, its live status, and its results under it. */
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
  return (
    <article
      data-testid="job-card"
      data-job-id={job.id}
      data-status={job.status}
      aria-label={job.prompt ?? t('generate.job.untitled')}
      className="rounded-3xl border border-zinc-200 bg-white p-4 shadow-sm sm:p-5 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <JobStatus
        job={job}
        look="card"
        onCancelled={onCancelled}
        summary={
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
        }
      />
      {children && <div className="mt-4">{children}</div>}
    </article>
  );
}
