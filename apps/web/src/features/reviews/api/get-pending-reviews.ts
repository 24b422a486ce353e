import { queryOptions, useQuery } from '@tanstack/react-query';
import { pendingReviewsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getPendingReviews = (signal?: AbortSignal) => api.call(pendingReviewsContract, { signal });

export const pendingReviewsQueryKey = ['reviews', 'pending'] as const;

export const getPendingReviewsQueryOptions = () =>
  queryOptions({ queryKey: pendingReviewsQueryKey, queryFn: ({ signal }) => getPendingReviews(signal) });

export const usePendingReviews = () => useQuery(getPendingReviewsQueryOptions());
