import { useMemo, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ImageView } from '@lumina/contracts';
import { ErrorBoundary } from '@/components/errors/error-boundary';
import { CategoryChips as CategoryChipRow } from '@/components/ui/category-chips';
import { EmptyImages, LoadingBlock, QueryError } from '@/components/ui/query-states';
import { Spinner } from '@/components/ui/spinner';
import { useExampleCategories } from '@/lib/examples/example-categories';
import { useImages, type GalleryFilters, type GalleryTab } from '../api/list-images';
import { useInfiniteSentinel } from '../hooks/use-infinite-sentinel';
import type { OpenInStudio } from '../utils/tool-output';
import { ImageGrid } from './image-grid';

const TABS: readonly GalleryTab[] = ['all', 'saved', 'favorites', 'videos', 'examples'];

export interface GalleryViewProps {
  /** Models for the filter (id and display name). */
  models?: readonly { id: string; display_name: string }[];
  onRemix?: (image: ImageView) => void;
  onUseSeed?: (seed: number) => void;
  /** Hands an image to a Studio tool; without it the lightbox offers no Studio actions. */
  onOpenInStudio?: OpenInStudio;
  /** The Videos view (the page composes the Studio's video list); without it there is no Videos tab. */
  renderVideos?: () => ReactNode;
}

/** Reads the gallery's tab, category and model from the URL, so a reload or a shared link shows the same view. */
function useGalleryFilters(
  tabs: readonly GalleryTab[],
): [GalleryFilters, (patch: Partial<GalleryFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab = tabs.includes(tabParam as GalleryTab) ? (tabParam as GalleryTab) : 'all';
  const filters: GalleryFilters = {
    tab,
    category: tab === 'examples' ? (params.get('category') ?? undefined) : undefined,
    model: params.get('model') ?? undefined,
  };
  const update = (patch: Partial<GalleryFilters>) => {
    const next = { ...filters, ...patch };
    if (patch.tab && patch.tab !== filters.tab) next.category = undefined;
    const search = new URLSearchParams();
    if (next.tab !== 'all') search.set('tab', next.tab);
    if (next.tab === 'examples' && next.category) search.set('category', next.category);
    if (next.model) search.set('model', next.model);
    setParams(search, { replace: true });
  };
  return [filters, update];
}

export function GalleryView({ models, onRemix, onUseSeed, onOpenInStudio, renderVideos }: GalleryViewProps) {
  const { t } = useTranslation();
  const tabs = renderVideos ? TABS : TABS.filter((tab) => tab !== 'videos');
  const [filters, update] = useGalleryFilters(tabs);
  const modelName = useMemo(() => {
    const names = new Map(models?.map((m) => [m.id, m.display_name]));
    return (id: string) => names.get(id);
  }, [models]);

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div
          role="tablist"
          aria-label={t('gallery.tabsLabel')}
          className="-mx-1 flex gap-1 overflow-x-auto px-1 pb-1 sm:pb-0"
        >
          {tabs.map((tab) => {
            const selected = tab === filters.tab;
            return (
              <button
                key={tab}
                type="button"
                role="tab"
                id={`gallery-tab-${tab}`}
                aria-selected={selected}
                aria-controls="gallery-panel"
                onClick={() => update({ tab })}
                className={`shrink-0 rounded-xl px-4 py-2 text-sm font-semibold transition ${
                  selected
                    ? 'bg-zinc-900 text-white dark:bg-white dark:text-zinc-900'
                    : 'text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-white'
                }`}
              >
                {t(`gallery.tabs.${tab}`)}
              </button>
            );
          })}
        </div>
        {models && models.length > 0 && filters.tab !== 'videos' && (
          <label className="flex items-center gap-2 text-sm">
            <span className="text-zinc-600 dark:text-zinc-400">{t('gallery.modelFilter')}</span>
            <select
              value={filters.model ?? ''}
              onChange={(e) => update({ model: e.target.value || undefined })}
              className="rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm font-medium dark:border-zinc-700 dark:bg-zinc-900"
            >
              <option value="">{t('gallery.allModels')}</option>
              {models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.display_name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>

      {filters.tab === 'examples' && (
        <ErrorBoundary fallback={() => null}>
          <CategoryChips value={filters.category} onChange={(category) => update({ category })} />
        </ErrorBoundary>
      )}

      <div role="tabpanel" id="gallery-panel" aria-labelledby={`gallery-tab-${filters.tab}`}>
        <ErrorBoundary key={JSON.stringify(filters)}>
          {filters.tab === 'videos' && renderVideos ? (
            renderVideos()
          ) : (
            <GalleryResults
              filters={filters}
              modelName={modelName}
              onRemix={onRemix}
              onUseSeed={onUseSeed}
              onOpenInStudio={onOpenInStudio}
            />
          )}
        </ErrorBoundary>
      </div>
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
      label={t('gallery.categories')}
      allLabel={t('gallery.allCategories')}
    />
  );
}

function GalleryResults({
  filters,
  modelName,
  onRemix,
  onUseSeed,
  onOpenInStudio,
}: {
  filters: GalleryFilters;
  modelName: (id: string) => string | undefined;
  onRemix?: (image: ImageView) => void;
  onUseSeed?: (seed: number) => void;
  onOpenInStudio?: OpenInStudio;
}) {
  const { t } = useTranslation();
  const query = useImages(filters);
  const images = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const canLoadMore = query.hasNextPage && !query.isFetchingNextPage;
  const sentinel = useInfiniteSentinel<HTMLDivElement>(() => {
    if (canLoadMore) void query.fetchNextPage();
  }, canLoadMore);

  if (query.isPending) return <LoadingBlock />;
  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  if (images.length === 0) {
    const key = filters.model ? 'filtered' : filters.tab;
    return (
      <EmptyImages
        testId="gallery-empty"
        title={t(`gallery.empty.${key}.title`)}
        body={t(`gallery.empty.${key}.body`)}
      />
    );
  }
  return (
    <ImageGrid
      images={images}
      modelName={modelName}
      onRemix={onRemix}
      onUseSeed={onUseSeed}
      onOpenInStudio={onOpenInStudio}
    >
      <div
        ref={sentinel}
        className="flex min-h-16 items-center justify-center py-6"
        data-testid="gallery-sentinel"
      >
        {query.isFetchingNextPage ? (
          <Spinner />
        ) : query.hasNextPage ? (
          <button
            type="button"
            onClick={() => void query.fetchNextPage()}
            className="rounded-xl border border-zinc-300 px-4 py-2 text-sm font-semibold hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
          >
            {t('gallery.loadMore')}
          </button>
        ) : (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">
            {t('gallery.end', { count: images.length })}
          </p>
        )}
      </div>
    </ImageGrid>
  );
}
