import { queryOptions, useQuery } from '@tanstack/react-query';
import { videosContract, type VideoView } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const videosQueryKey = ['videos'] as const;

/** While a video is still being made the list refreshes on its own this often. */
export const VIDEOS_POLL_MS = 3_000;

export const isActiveVideo = (video: Pick<VideoView, 'status'>) =>
  video.status === 'queued' || video.status === 'running';

export const getVideosQueryOptions = () =>
  queryOptions({
    queryKey: videosQueryKey,
    queryFn: ({ signal }) => api.call(videosContract, { query: { limit: 48 }, signal }),
    refetchInterval: (query) =>
      (query.state.data?.items ?? []).some(isActiveVideo) ? VIDEOS_POLL_MS : false,
  });

export const useVideos = () => useQuery(getVideosQueryOptions());
