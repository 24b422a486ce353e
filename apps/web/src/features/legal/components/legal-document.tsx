import Markdown, { type Components } from 'react-markdown';
import { useTranslation } from 'react-i18next';
import type { LegalPage } from '@lumina/contracts';
import { PanelErrorFallback } from '@/components/errors/panel-error-fallback';
import { Spinner } from '@/components/ui/spinner';
import { useLegalDocument } from '../api/get-legal-document';

/** Typography for the operator's Markdown, in the product's style. */
const components: Components = {
  h1: ({ children }) => <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{children}</h1>,
  h2: ({ children }) => <h2 className="mt-6 text-xl font-semibold">{children}</h2>,
  h3: ({ children }) => <h3 className="mt-4 text-lg font-semibold">{children}</h3>,
  p: ({ children }) => <p className="leading-relaxed text-zinc-700 dark:text-zinc-300">{children}</p>,
  ul: ({ children }) => (
    <ul className="list-disc space-y-1.5 pl-6 text-zinc-700 dark:text-zinc-300">{children}</ul>
  ),
  ol: ({ children }) => (
    <ol className="list-decimal space-y-1.5 pl-6 text-zinc-700 dark:text-zinc-300">{children}</ol>
  ),
  a: ({ children, href }) => (
    <a href={href} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
      {children}
    </a>
  ),
  code: ({ children }) => (
    <code className="rounded bg-zinc-100 px-1 py-0.5 text-sm dark:bg-zinc-800">{children}</code>
  ),
};

/**
 * The Terms of Service or Privacy Policy as the operator wrote them. Rendered by react-markdown,
 * which builds React elements and never injects HTML: raw HTML in the file is left out, and
 * `javascript:` links are dropped by its URL filter.
 */
export function LegalDocument({ page }: { page: LegalPage }) {
  const { t } = useTranslation();
  const doc = useLegalDocument(page);
  if (doc.isPending) return <Spinner />;
  if (doc.isError) return <PanelErrorFallback onRetry={() => void doc.refetch()} />;
  return (
    <article className="mx-auto flex w-full max-w-3xl flex-col gap-4" data-testid={`legal-${page}`}>
      {doc.data.is_default && (
        <p className="rounded-2xl bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
          {t('legal.defaultNotice')}
        </p>
      )}
      <Markdown components={components} skipHtml>
        {doc.data.markdown}
      </Markdown>
    </article>
  );
}
