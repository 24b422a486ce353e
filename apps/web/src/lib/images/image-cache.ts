import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import type { ImageView } from '@lumina/contracts';

/** Every image query lives under this key, so actions can patch or refresh all of them at once. */
export const imagesQueryKey = ['images'] as const;

interface Page {
  items: ImageView[];
  next_cursor: string | null;
}
type Cached = Page | InfiniteData<Page, unknown> | undefined;

const isInfinite = (data: Cached): data is InfiniteData<Page, unknown> =>
  !!data && typeof data === 'object' && 'pages' in data;

function mapItems(data: Cached, fn: (items: ImageView[]) => ImageView[]): Cached {
  if (!data || typeof data !== 'object') return data;
  if (isInfinite(data))
    return { ...data, pages: data.pages.map((page) => ({ ...page, items: fn(page.items) })) };
  if ('items' in data && Array.isArray(data.items)) return { ...data, items: fn(data.items) };
  return data;
}

export type CacheSnapshot = [QueryKey, unknown][];

/** Cancels in-flight image fetches and remembers every image query's data, for a rollback. */
export async function snapshotImages(queryClient: QueryClient): Promise<CacheSnapshot> {
  await queryClient.cancelQueries({ queryKey: imagesQueryKey });
  return queryClient.getQueriesData({ queryKey: imagesQueryKey });
}

export function restoreImages(queryClient: QueryClient, snapshot: CacheSnapshot | undefined) {
  for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
}

/** Applies a change to one image wherever it is cached (every gallery tab and every job's results). */
export function patchImage(queryClient: QueryClient, id: string, patch: Partial<ImageView>) {
  queryClient.setQueriesData<Cached>({ queryKey: imagesQueryKey }, (data) =>
    mapItems(data, (items) => items.map((image) => (image.id === id ? { ...image, ...patch } : image))),
  );
}

export function removeImage(queryClient: QueryClient, id: string) {
  queryClient.setQueriesData<Cached>({ queryKey: imagesQueryKey }, (data) =>
    mapItems(data, (items) => items.filter((image) => image.id !== id)),
  );
}
