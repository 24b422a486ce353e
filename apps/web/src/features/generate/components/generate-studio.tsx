import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView, ModelInfo } from '@lumina/contracts';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { SparklesIcon } from '@/components/ui/icons';
import { ProviderSetupHint } from '@/components/ui/setup-hint';
import { LoadingBlock } from '@/components/ui/query-states';
import { afterRender, reveal } from '@/lib/reveal';
import { useModels } from '../api/get-models';
import { isEmptiedJob, useProgress } from '../api/get-progress';
import { useJobTransitions } from '../hooks/use-job-transitions';
import { useProgressSync, type ProgressSyncOptions, type StreamState } from '../hooks/use-progress-sync';
import { useGenerateForm } from '../stores/generate-form';
import { findModel } from '../utils/recipe';
import { GenerateForm } from './generate-form';
import { JobCard } from './job-card';
import { Alert } from '@/components/ui/alert';

export interface GenerateStudioProps {
  balance: number | undefined;
  /** After a spend (with the new balance) and after a refund (without): the page refreshes the header. */
  onCreditsChanged?: (balance?: number) => void;
  /** Renders a job's finished images (the gallery's cards, so actions match everywhere). */
  renderResults?: (job: JobView) => ReactNode;
  /** Test seam for the progress stream (base URL, token getter, timings). */
  streamOptions?: ProgressSyncOptions;
  /** An operator (ADMIN_EMAILS) also sees a set-up note when models are hidden for want of a provider key. */
  isOperator?: boolean;
}

/**
 * The generation studio: the form on the left (top on phones), live jobs and their results beside it.
 * The Generate button is always on screen (held at the bottom of the screen while the form is in view
 * on wide screens, a bar at the bottom of the screen on phones) and the new job is brought into view when it starts, so the action
 * and its progress and results are seen together. Customers see only the models they can use.
 */
export function GenerateStudio({
  balance,
  onCreditsChanged,
  renderResults,
  streamOptions,
  isOperator = false,
}: GenerateStudioProps) {
  const { t } = useTranslation();
  const models = useModels();
  // The pickers' catalogue also lists the train models (for the Training page): Generate offers text-to-image.
  const imageModels = useMemo(
    () => models.data?.models.filter((m) => m.capability === 'text-to-image') ?? [],
    [models.data],
  );
  const usable = useMemo(() => imageModels.filter((m) => m.available), [imageModels]);
  const hidden = imageModels.length - usable.length;
  // A model asked for by the address (a newly trained one, say) may be missing from a catalogue cached
  // before it existed: wait for the refetch rather than fall back to the default model.
  const wanted = useGenerateForm((s) => s.model);
  const awaitingWanted = models.isFetching && wanted !== null && !usable.some((m) => m.id === wanted);
  return (
    <div className="grid items-start gap-8 max-lg:pb-24 lg:grid-cols-[minmax(0,27rem)_minmax(0,1fr)]">
      <section
        aria-labelledby="generate-form-heading"
        data-testid="generate-form-panel"
        className="rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-6 lg:pb-0 dark:border-zinc-800 dark:bg-zinc-900"
      >
        <h2 id="generate-form-heading" className="sr-only">
          {t('generate.form.label')}
        </h2>
        <ErrorBoundary>
          {models.isPending || awaitingWanted ? (
            <LoadingBlock className="py-16" />
          ) : models.isError ? (
            <Alert tone="error" inline>
              {models.error.message}
            </Alert>
          ) : (
            <>
              {isOperator && (
                <div className="mb-5">
                  <ProviderSetupHint id="models" hidden={hidden} />
                </div>
              )}
              {usable.length === 0 ? (
                <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('generate.form.noModels')}</p>
              ) : (
                <GenerateForm
                  models={usable}
                  balance={balance}
                  onSpent={(next) => {
                    onCreditsChanged?.(next);
                    afterRender(revealNewestJob);
                  }}
                />
              )}
            </>
          )}
        </ErrorBoundary>
      </section>
      <section aria-labelledby="jobs-heading" className="min-w-0">
        <ErrorBoundary>
          <JobsPanel
            renderResults={renderResults}
            onRefund={() => onCreditsChanged?.()}
            models={models.data?.models}
            streamOptions={streamOptions}
          />
        </ErrorBoundary>
      </section>
    </div>
  );
}

/**
 * The new job is the first card under "Your creations": bring it into view (below the sticky header,
 * above the phone's Generate bar) if it is not already.
 */
function revealNewestJob() {
  if (typeof document === 'undefined') return;
  const wide = window.matchMedia?.('(min-width: 1024px)').matches ?? true;
  const first = document.querySelector('[data-testid="job-list"] > li');
  reveal(first ?? document.getElementById('jobs-heading'), { top: 80, bottom: wide ? 16 : 112 });
}

function LiveIndicator({ state }: { state: StreamState }) {
  const { t } = useTranslation();
  const dot = { live: 'bg-emerald-500', connecting: 'bg-zinc-400 animate-pulse', fallback: 'bg-amber-500' }[
    state
  ];
  return (
    <span
      data-testid="stream-state"
      data-state={state}
      className="inline-flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400"
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${dot}`} />
      {t(`generate.stream.${state}`)}
    </span>
  );
}

function JobsPanel({
  renderResults,
  onRefund,
  models,
  streamOptions,
}: {
  renderResults?: (job: JobView) => ReactNode;
  onRefund: () => void;
  models: readonly ModelInfo[] | undefined;
  streamOptions?: ProgressSyncOptions;
}) {
  const { t } = useTranslation();
  const stream = useProgressSync(streamOptions);
  const progress = useProgress({ live: stream === 'live' });
  const jobs = useMemo(
    () =>
      (progress.data?.jobs ?? [])
        // A job whose images were all deleted has nothing left to show.
        .filter((job) => job.kind === 'generate' && !isEmptiedJob(job))
        .sort((a, b) => b.created_at.localeCompare(a.created_at)),
    [progress.data],
  );
  useJobTransitions(progress.data?.jobs, { onRefund });

  return (
    <>
      <div className="mb-4 flex items-center justify-between gap-3">
        <h2 id="jobs-heading" className="scroll-mt-24 text-lg font-semibold">
          {t('generate.jobs.title')}
        </h2>
        <LiveIndicator state={stream} />
      </div>
      {progress.isPending ? (
        <LoadingBlock className="py-16" />
      ) : jobs.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-zinc-300 px-6 py-16 text-center dark:border-zinc-700">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-100 text-2xl text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
            <SparklesIcon />
          </span>
          <p className="font-semibold">{t('generate.jobs.emptyTitle')}</p>
          <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">{t('generate.jobs.emptyBody')}</p>
        </div>
      ) : (
        <ol className="flex flex-col gap-4" data-testid="job-list">
          {jobs.map((job) => (
            <li key={job.id}>
              <JobCard
                job={job}
                model={findModel(models, job.model)}
                onCancelled={(j) => j.refunded && onRefund()}
              >
                {(job.image_ids.length > 0 || (job.status === 'running' && job.num_images > 0)) &&
                  renderResults?.(job)}
              </JobCard>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
