import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { listImagesContract, PAGE_SIZE_MAX } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { imagesQueryKey } from '@/lib/images/image-cache';

/** Under the shared `images` key, so the save, favourite and delete actions reach these lists too. */
export const studioImagesKey = [...imagesQueryKey, 'studio'] as const;

export type PickerSource = 'images' | 'uploads';

export const PICKER_PAGE_SIZE = 30;

/** "Choose from gallery": the user's images (uploads left out by the server) or only their uploads. */
export const pickerImagesOptions = (source: PickerSource) =>
  infiniteQueryOptions({
    queryKey: [...studioImagesKey, 'picker', source],
    queryFn: ({ pageParam, signal }) =>
      api.call(listImagesContract, {
        query: {
          limit: PICKER_PAGE_SIZE,
          cursor: pageParam,
          ...(source === 'uploads' ? { kind: 'upload' as const } : {}),
        },
        signal,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

export const usePickerImages = (source: PickerSource, enabled: boolean) =>
  useInfiniteQuery({ ...pickerImagesOptions(source), enabled });

/** A tool job's output images; the key carries their ids, so a new one refetches. */
export const toolResultsOptions = (jobId: string, imageIds: readonly string[]) =>
  queryOptions({
    queryKey: [...studioImagesKey, 'job', jobId, [...imageIds].sort().join(',')],
    queryFn: ({ signal }) =>
      api.call(listImagesContract, { query: { job_id: jobId, limit: PAGE_SIZE_MAX }, signal }),
    enabled: imageIds.length > 0,
  });

export const useToolResults = (jobId: string, imageIds: readonly string[]) =>
  useQuery(toolResultsOptions(jobId, imageIds));
