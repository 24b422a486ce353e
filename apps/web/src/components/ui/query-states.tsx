import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ImagesIcon } from './icons';
import { Spinner } from './spinner';

/**
 * What a panel shows while its query loads, when it failed and when its image list is empty, the same
 * wherever one is listed (examples, gallery, the studio's picker, tools, runs and videos, the models).
 */

/** A centred spinner in place of content still loading; `className` sets its height (`py-20` by default). */
export function LoadingBlock({ className = 'py-20' }: { className?: string }) {
  return (
    <div className={`flex justify-center ${className}`} aria-busy="true">
      <Spinner />
    </div>
  );
}

/** A query's error message with a retry link; `compact` for the smaller panels (a paragraph, less padding). */
export function QueryError({
  error,
  onRetry,
  compact = false,
}: {
  error: Error;
  onRetry: () => void;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const Tag = compact ? 'p' : 'div';
  return (
    <Tag
      role="alert"
      className={`rounded-2xl bg-red-50 ${compact ? 'p-4' : 'p-6'} text-sm text-red-900 dark:bg-red-950/40 dark:text-red-100`}
    >
      {error.message}{' '}
      <button type="button" onClick={onRetry} className="font-semibold underline">
        {t('errors.retry')}
      </button>
    </Tag>
  );
}

/** An empty image list: an icon, a title and a line saying what would fill it. */
export function EmptyImages({ testId, title, body }: { testId: string; title: ReactNode; body: ReactNode }) {
  return (
    <div
      data-testid={testId}
      className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-zinc-300 px-6 py-16 text-center dark:border-zinc-700"
    >
      <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-100 text-2xl text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
        <ImagesIcon />
      </span>
      <p className="font-semibold">{title}</p>
      <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">{body}</p>
    </div>
  );
}
