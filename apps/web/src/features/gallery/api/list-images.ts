import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { listImagesContract, PAGE_SIZE_MAX } from '@lumina/contracts';
import { api, type CallOptions } from '@/lib/api-client';
import { imagesQueryKey } from '@/lib/images/image-cache';

export type GalleryTab = 'all' | 'saved' | 'favorites' | 'videos' | 'examples';

export interface GalleryFilters {
  tab: GalleryTab;
  /** Examples only; undefined means every category (spec P9: `category` is omitted for "All"). */
  category?: string;
  model?: string;
}

export type ListImagesQuery = NonNullable<CallOptions<typeof listImagesContract>['query']>;

export const GALLERY_PAGE_SIZE = 24;

/** Spec P9: saved is `is_saved=true`; examples are `is_example=true` plus `category` only when one is chosen. */
export function toListQuery(filters: GalleryFilters): ListImagesQuery {
  const query: ListImagesQuery = {};
  if (filters.tab === 'saved') query.is_saved = 'true';
  if (filters.tab === 'favorites') query.is_favorite = 'true';
  if (filters.tab === 'examples') {
    query.is_example = 'true';
    if (filters.category) query.category = filters.category;
  }
  if (filters.model) query.model = filters.model;
  return query;
}

export const listImages = (query: ListImagesQuery, signal?: AbortSignal) =>
  api.call(listImagesContract, { query, signal });

export const listImagesInfiniteOptions = (filters: GalleryFilters) =>
  infiniteQueryOptions({
    queryKey: [...imagesQueryKey, 'list', toListQuery(filters)],
    queryFn: ({ pageParam, signal }) =>
      listImages({ ...toListQuery(filters), limit: GALLERY_PAGE_SIZE, cursor: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

export const useImages = (filters: GalleryFilters) => useInfiniteQuery(listImagesInfiniteOptions(filters));

/** A job's finished images (the `job_id` filter); the key carries their ids, so each new one refetches. */
export const jobImagesQueryOptions = (jobId: string, imageIds: readonly string[]) =>
  queryOptions({
    queryKey: [...imagesQueryKey, 'job', jobId, [...imageIds].sort().join(',')],
    queryFn: ({ signal }) => listImages({ job_id: jobId, limit: PAGE_SIZE_MAX }, signal),
    enabled: imageIds.length > 0,
    // Keep showing the images already here while the next finished one loads.
    placeholderData: keepPreviousData,
  });

export const useJobImages = (jobId: string, imageIds: readonly string[]) =>
  useQuery(jobImagesQueryOptions(jobId, imageIds));
