import { queryOptions, useQuery } from '@tanstack/react-query';
import { reviewSummaryContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const getReviewSummaryQueryOptions = () =>
  queryOptions({
    queryKey: ['reviews', 'summary'] as const,
    queryFn: ({ signal }) => api.call(reviewSummaryContract, { signal }),
  });

export const useReviewSummary = () => useQuery(getReviewSummaryQueryOptions());
