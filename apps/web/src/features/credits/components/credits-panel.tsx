import type { ReactNode } from 'react';
import { PanelErrorFallback } from '@/components/errors/panel-error-fallback';
import { Spinner } from '@/components/ui/spinner';

/**
 * A section of the credits page over one list query: its heading, then a spinner while it loads, the
 * error with a retry when nothing could be loaded, the empty text when the list is empty, or the list.
 */
export function CreditsPanel<T>({
  name,
  title,
  query,
  failed = query.isError,
  items,
  emptyText,
  children,
  footer,
}: {
  /** Names the heading's id (`${name}-heading`), which labels the section. */
  name: string;
  title: string;
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  /** Whether to show the error instead of the list; by default whenever the query failed. */
  failed?: boolean;
  items: T[] | undefined;
  emptyText: string;
  children: (items: T[]) => ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section aria-labelledby={`${name}-heading`} className="flex flex-col gap-4">
      <h2 id={`${name}-heading`} className="text-xl font-semibold">
        {title}
      </h2>
      {query.isPending ? (
        <Spinner />
      ) : failed || !items ? (
        <PanelErrorFallback onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <p className="text-sm text-zinc-500 dark:text-zinc-400">{emptyText}</p>
      ) : (
        children(items)
      )}
      {footer}
    </section>
  );
}
