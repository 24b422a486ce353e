import { useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TOOLS, type ImageView, type JobView, type Tool } from '@lumina/contracts';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useTools } from '../api/get-tools';
import { sendToStudio } from '../stores/studio-store';
import { WEB_TOOLS } from '../tools';
import { ToolPanel } from './tool-panel';

/** The tool named by `?tool=` (a Tool id); the first tool by default. */
export function toolFromParam(value: string | null): Tool {
  return TOOLS.includes(value as Tool) ? (value as Tool) : TOOLS[0];
}

export interface StudioViewProps {
  balance: number | undefined;
  /** The user's jobs from the progress feed (the page keeps it live). */
  jobs: readonly JobView[] | undefined;
  /** After a charge (with the new balance) and after a refund (without): the page refreshes the header. */
  onCreditsChanged?: (balance?: number) => void;
  /** A run was accepted: the page asks the progress feed for a fresh snapshot. */
  onJobStarted?: () => void;
  /** The signed-in person runs this server (ADMIN_EMAILS): set-up notes are for them only. */
  isOperator?: boolean;
}

/** The Studio: one tab per image tool, the tab kept in the URL so it can be linked and survives a reload. */
export function StudioView({
  balance,
  jobs,
  onCreditsChanged,
  onJobStarted,
  isOperator = false,
}: StudioViewProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tool = toolFromParam(params.get('tool'));
  const tools = useTools();
  const tabs = useRef<Partial<Record<Tool, HTMLButtonElement | null>>>({});

  const select = (next: Tool, focus = false) => {
    setParams(
      (current) => {
        const search = new URLSearchParams(current);
        search.set('tool', next);
        return search;
      },
      { replace: true },
    );
    if (focus) tabs.current[next]?.focus();
  };

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = TOOLS.indexOf(tool);
    const target =
      event.key === 'ArrowRight'
        ? TOOLS[(index + 1) % TOOLS.length]
        : event.key === 'ArrowLeft'
          ? TOOLS[(index - 1 + TOOLS.length) % TOOLS.length]
          : event.key === 'Home'
            ? TOOLS[0]
            : event.key === 'End'
              ? TOOLS[TOOLS.length - 1]
              : undefined;
    if (!target) return;
    event.preventDefault();
    select(target, true);
  }

  const useAs = (next: Tool, image: ImageView) => {
    sendToStudio(next, image);
    select(next);
    if (typeof window !== 'undefined') window.scrollTo?.({ top: 0, behavior: 'smooth' });
  };

  return (
    <div className="flex flex-col gap-6">
      <div role="tablist" aria-label={t('studio.tabsLabel')} className="flex flex-wrap gap-1">
        {TOOLS.map((item) => {
          const selected = item === tool;
          return (
            <button
              key={item}
              ref={(el) => {
                tabs.current[item] = el;
              }}
              type="button"
              role="tab"
              id={`studio-tab-${item}`}
              aria-selected={selected}
              aria-controls="studio-panel"
              tabIndex={selected ? 0 : -1}
              onClick={() => select(item)}
              onKeyDown={onTabKeyDown}
              className={`inline-flex shrink-0 items-center gap-2 rounded-xl px-4 py-2 text-sm font-semibold transition ${
                selected
                  ? 'bg-zinc-900 text-white dark:bg-white dark:text-zinc-900'
                  : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-white'
              }`}
            >
              <span aria-hidden="true" className="text-base">
                {WEB_TOOLS[item].icon}
              </span>
              {t(`studio.tools.${item}.name`)}
            </button>
          );
        })}
      </div>

      <div
        role="tabpanel"
        id="studio-panel"
        aria-labelledby={`studio-tab-${tool}`}
        className="flex flex-col gap-5"
      >
        <p className="max-w-2xl text-sm text-zinc-600 dark:text-zinc-400">
          {t(`studio.tools.${tool}.description`)}
        </p>
        <ErrorBoundary key={tool}>
          {tools.isPending ? (
            <LoadingBlock />
          ) : tools.isError ? (
            <QueryError error={tools.error} onRetry={() => void tools.refetch()} />
          ) : (
            <ToolPanel
              key={tool}
              tool={tool}
              catalogue={tools.data}
              balance={balance}
              jobs={jobs}
              onSpent={(next) => onCreditsChanged?.(next)}
              onRefunded={() => onCreditsChanged?.()}
              onJobStarted={onJobStarted}
              onUseAs={useAs}
              isOperator={isOperator}
            />
          )}
        </ErrorBoundary>
      </div>
    </div>
  );
}
