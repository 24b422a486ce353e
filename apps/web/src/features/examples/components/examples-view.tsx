import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { CategoryChips as CategoryChipRow } from '@/components/ui/category-chips';
import { EmptyImages, LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useExampleCategories } from '@/lib/examples/example-categories';
import { useExamples } from '../api/list-examples';
import { ExampleCard } from './example-card';

/**
 * Public examples by category, for everyone (signed in or not): each with its prompt, model and "Try
 * this prompt". The category lives in the URL, so a shared link shows the same view.
 */
export function ExamplesView({ modelName }: { modelName?: (id: string) => string | undefined }) {
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? undefined;
  const choose = (next?: string) => setParams(next ? { category: next } : {}, { replace: true });
  return (
    <div className="flex flex-col gap-5">
      <ErrorBoundary fallback={() => null}>
        <CategoryChips value={category} onChange={choose} />
      </ErrorBoundary>
      <ErrorBoundary key={category ?? ''}>
        <ExampleResults category={category} modelName={modelName} />
      </ErrorBoundary>
    </div>
  );
}

function CategoryChips({ value, onChange }: { value?: string; onChange: (category?: string) => void }) {
  const { t } = useTranslation();
  const categories = useExampleCategories();
  return (
    <CategoryChipRow
      categories={categories.data?.categories ?? []}
      value={value}
      onChange={onChange}
      label={t('examples.categories')}
      allLabel={t('examples.all')}
    />
  );
}

function ExampleResults({
  category,
  modelName,
}: {
  category?: string;
  modelName?: (id: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const query = useExamples(category);
  const images = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  if (query.isPending) return <LoadingBlock />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  if (images.length === 0)
    return (
      <EmptyImages
        testId="examples-empty"
        title={t('examples.empty.title')}
        body={t('examples.empty.body')}
      />
    );
  return (
    <div className="flex flex-col gap-6">
      <div className="columns-1 gap-4 sm:columns-2 lg:columns-3" data-testid="examples-grid">
        {images.map((image, i) => (
          <ExampleCard key={image.id} image={image} modelName={modelName?.(image.model)} eager={i < 3} />
        ))}
      </div>
      {query.hasNextPage && (
        <button
          type="button"
          onClick={() => void query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
          className="self-center rounded-xl border border-zinc-300 px-4 py-2 text-sm font-semibold hover:bg-zinc-100 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          {query.isFetchingNextPage ? t('examples.loading') : t('examples.loadMore')}
        </button>
      )}
    </div>
  );
}
