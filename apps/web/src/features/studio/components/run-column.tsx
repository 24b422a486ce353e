import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageView, JobView, Tool } from '@lumina/contracts';
import { JobStatus, type JobState } from '@/components/jobs/job-status';
import { SparklesIcon } from '@/components/ui/icons';
import { isActiveJob } from '@/lib/jobs/job-cache';
import { useToolRuns } from '../api/list-runs';
import { useStudio } from '../stores/studio-store';
import { runFromHistory } from '../utils/history';
import type { ToolRun } from '../utils/inputs';
import { RunResult } from './run-result';

/** A tool's result column: the latest run's live status and result, or what to expect before the first run. */
export function RunColumn({
  headingId,
  tool,
  jobs,
  onRefunded,
  onUseAs,
}: {
  headingId: string;
  tool: Tool;
  jobs: readonly JobView[] | undefined;
  onRefunded?: () => void;
  onUseAs: (tool: Tool, image: ImageView) => void;
}) {
  const { t } = useTranslation();
  const started = useStudio((s) => s.runs[tool]);
  // After a reload (or on another device) the newest run kept on the server is the result shown.
  const history = useToolRuns(tool);
  const newest = history.data?.pages[0]?.items[0];
  const fromServer = useMemo(() => (newest ? runFromHistory(newest) : undefined), [newest]);
  const run = started ?? fromServer;
  const [cancelled, setCancelled] = useState<JobView | null>(null);
  const job = run ? runState(run, jobs, cancelled) : null;
  return (
    <div className="rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-6 dark:border-zinc-800 dark:bg-zinc-900">
      <h2 id={headingId} className="mb-4 text-lg font-semibold">
        {t('studio.run.title')}
      </h2>
      {!run || !job ? (
        <div className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-zinc-300 px-6 py-14 text-center dark:border-zinc-700">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-100 text-2xl text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
            <SparklesIcon />
          </span>
          <p className="font-semibold">{t('studio.run.emptyTitle')}</p>
          <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">
            {t(`studio.tools.${tool}.hint`)}
          </p>
        </div>
      ) : (
        <div className="flex flex-col gap-5" data-testid="tool-run" data-tool={tool}>
          <JobStatus
            job={job}
            look="panel"
            onCancelled={(answer) => {
              setCancelled(answer);
              if (answer.refunded) onRefunded?.();
            }}
          />
          <RunResult run={run} job={job} onUseAs={onUseAs} />
        </div>
      )}
    </div>
  );
}

/** The run's state: the feed's job (or the cancel answer while the feed still says active), else as accepted. */
export function runState(
  run: ToolRun,
  jobs: readonly JobView[] | undefined,
  cancelled: JobView | null,
): JobState {
  const fromFeed = jobs?.find((job) => job.id === run.jobId);
  if (cancelled?.id === run.jobId && (!fromFeed || isActiveJob(fromFeed))) return cancelled;
  if (fromFeed) return fromFeed;
  return {
    id: run.jobId,
    status: run.acceptedStatus,
    percent: null,
    message: null,
    queue_position: null,
    error: run.known?.error ?? null,
    refunded: run.known?.refunded ?? false,
    cost: run.cost,
    image_ids: run.known?.imageIds ?? [],
  };
}
