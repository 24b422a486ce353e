import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView } from '@lumina/contracts';
import { JobStatus, type JobState } from '@/components/jobs/job-status';
import { remainingMinutes, remainingMs } from '../utils/estimate';

/** Re-renders every `ms` while `on`, for a clock-driven line such as an estimate. */
function useNow(on: boolean, ms = 5_000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [on, ms]);
  return now;
}

/**
 * A training's live state: status, percent and the trainer's latest log line (the job's message),
 * an estimate of the time left, Cancel while it runs, and on failure the error and the refund.
 */
export function TrainingProgress({
  job,
  onCancelled,
}: {
  job: JobState & Partial<Pick<JobView, 'started_at'>>;
  onCancelled?: (job: JobView) => void;
}) {
  const { t } = useTranslation();
  const running = job.status === 'running';
  const now = useNow(running);
  const left =
    running && job.started_at !== undefined
      ? remainingMs({ status: job.status, percent: job.percent, started_at: job.started_at }, now)
      : null;
  return (
    <div className="flex flex-col gap-2">
      <JobStatus job={job} look="training" onCancelled={onCancelled} />
      {left !== null && (
        <p className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="training-estimate">
          {t('training.job.estimate', { count: remainingMinutes(left) })}
        </p>
      )}
    </div>
  );
}
