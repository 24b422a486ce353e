import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageView, Tool, ToolRunView } from '@lumina/contracts';
import { FilmIcon, ImagesIcon } from '@/components/ui/icons';
import { LoadingBlock } from '@/components/ui/query-states';
import { Spinner } from '@/components/ui/spinner';
import { useToolRuns } from '../api/list-runs';
import { webTool } from '../tools';
import { Alert } from '@/components/ui/alert';

const statusTone: Record<ToolRunView['status'], string> = {
  queued: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300',
  running: 'bg-brand-100 text-brand-700 dark:bg-brand-500/15 dark:text-brand-300',
  succeeded: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300',
  failed: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
  cancelled: 'bg-zinc-100 text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400',
};

/** A small picture at its own proportions (a run's input or output). */
function Thumb({ image, label }: { image: ImageView | null; label: string }) {
  const { t } = useTranslation();
  if (!image)
    return (
      <span
        className="flex size-14 items-center justify-center rounded-lg bg-zinc-100 text-[10px] text-zinc-500 dark:bg-zinc-800 dark:text-zinc-400"
        title={t('studio.history.inputGone')}
      >
        {t('studio.history.inputGone')}
      </span>
    );
  return (
    <img
      src={image.thumbnail_url}
      alt={label}
      loading="lazy"
      width={image.width}
      height={image.height}
      className="h-14 w-auto max-w-24 rounded-lg bg-zinc-100 object-contain dark:bg-zinc-800"
    />
  );
}

/** What a run was asked to do, in one line. */
function summary(run: ToolRunView): string {
  const s = run.settings;
  return [
    s.prompt,
    s.description,
    s.factor ? `${s.factor}×` : null,
    s.aspect_ratio,
    s.duration ? `${s.duration} s` : null,
    webTool(run.tool).historyFact?.(s) ?? null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The person's recent runs of this tool, from the server (so a reload or another device shows them):
 * each with its inputs, settings and result, and "Run again" / "Use these settings".
 */
export function RunHistory({
  tool,
  currentJobId,
  onRunAgain,
  onUseSettings,
  canRunAgain,
}: {
  tool: Tool;
  /** The run shown above as the result: listed too, but marked. */
  currentJobId?: string;
  onRunAgain: (run: ToolRunView) => void;
  onUseSettings: (run: ToolRunView) => void;
  /** Why "Run again" cannot start now (credits, a run starting), or null. */
  canRunAgain: (run: ToolRunView) => boolean;
}) {
  const { t, i18n } = useTranslation();
  const runs = useToolRuns(tool);
  const items = useMemo(() => runs.data?.pages.flatMap((page) => page.items) ?? [], [runs.data]);
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  return (
    <section
      aria-labelledby={`run-history-${tool}`}
      data-testid="run-history"
      className="rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm sm:p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id={`run-history-${tool}`} className="mb-4 text-lg font-semibold">
        {t('studio.history.title')}
      </h2>
      {runs.isPending ? (
        <LoadingBlock className="py-6" />
      ) : runs.isError ? (
        <Alert tone="error" inline>
          {runs.error.message}
        </Alert>
      ) : items.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('studio.history.empty')}</p>
      ) : (
        <ol className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-800">
          {items.map((run) => {
            const inputsKept = run.inputs.length > 0 && run.inputs.every(Boolean);
            return (
              <li
                key={run.id}
                data-testid="history-run"
                data-job-id={run.id}
                data-status={run.status}
                aria-current={run.id === currentJobId ? 'true' : undefined}
                className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0"
              >
                <div className="flex flex-wrap items-center gap-2">
                  <div className="flex items-center gap-1.5" aria-label={t('studio.history.inputs')}>
                    {run.inputs.map((image, i) => (
                      <Thumb
                        key={image?.id ?? `gone-${i}`}
                        image={image}
                        label={t('studio.history.inputs')}
                      />
                    ))}
                  </div>
                  <span aria-hidden="true" className="text-zinc-400">
                    →
                  </span>
                  <div className="flex items-center gap-1.5" data-testid="history-outputs">
                    {run.video?.poster_url ? (
                      <span className="relative">
                        <img
                          src={run.video.poster_url}
                          alt={t('studio.history.outputs')}
                          loading="lazy"
                          className="h-14 w-auto max-w-24 rounded-lg bg-zinc-100 object-contain dark:bg-zinc-800"
                        />
                        <FilmIcon className="absolute right-1 bottom-1 size-4 text-white drop-shadow" />
                      </span>
                    ) : run.outputs.length > 0 ? (
                      run.outputs.map((image) => (
                        <Thumb key={image.id} image={image} label={t('studio.history.outputs')} />
                      ))
                    ) : run.status === 'queued' || run.status === 'running' ? (
                      <Spinner className="size-5" />
                    ) : (
                      <span className="flex h-14 items-center gap-1 text-xs text-zinc-500 dark:text-zinc-400">
                        <ImagesIcon />
                        {t('studio.history.noOutput')}
                      </span>
                    )}
                  </div>
                  <span
                    className={`ml-auto rounded-full px-2 py-0.5 text-[11px] font-semibold ${statusTone[run.status]}`}
                  >
                    {t(`studio.run.status.${run.status}`)}
                  </span>
                </div>
                <p className="line-clamp-2 text-sm text-zinc-700 dark:text-zinc-300">{summary(run)}</p>
                <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
                  <time dateTime={run.created_at}>{when(run.created_at)}</time>
                  <span aria-hidden="true">·</span>
                  <span className="tabular-nums">{t('studio.run.cost', { count: run.cost })}</span>
                  <span className="ml-auto flex gap-2">
                    <button
                      type="button"
                      disabled={!inputsKept}
                      onClick={() => onUseSettings(run)}
                      data-testid="history-use-settings"
                      className="rounded-lg px-2.5 py-1 font-semibold text-zinc-700 hover:bg-zinc-100 disabled:opacity-50 dark:text-zinc-300 dark:hover:bg-zinc-800"
                    >
                      {t('studio.history.useSettings')}
                    </button>
                    <button
                      type="button"
                      disabled={!inputsKept || !canRunAgain(run)}
                      onClick={() => onRunAgain(run)}
                      aria-label={t('studio.history.runAgainLabel')}
                      data-testid="history-run-again"
                      className="rounded-lg border border-zinc-300 px-2.5 py-1 font-semibold text-zinc-800 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-700 dark:text-zinc-200 dark:hover:bg-zinc-800"
                    >
                      {t('studio.history.runAgain')}
                    </button>
                  </span>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {runs.hasNextPage && (
        <button
          type="button"
          onClick={() => void runs.fetchNextPage()}
          disabled={runs.isFetchingNextPage}
          className="mt-4 rounded-xl border border-zinc-300 px-4 py-2 text-sm font-semibold hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          {t('studio.history.loadMore')}
        </button>
      )}
    </section>
  );
}
