import { queryOptions, useQuery } from '@tanstack/react-query';
import { pendingImageSetsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const pendingImageSetsQueryKey = ['onboarding', 'pending-image-sets'] as const;

export const getPendingImageSets = (signal?: AbortSignal) => api.call(pendingImageSetsContract, { signal });

/** Photo sets uploaded and not yet bought with, newest first: the newest is offered back after a reload. */
export const usePendingImageSets = () =>
  useQuery(
    queryOptions({
      queryKey: pendingImageSetsQueryKey,
      queryFn: ({ signal }) => getPendingImageSets(signal),
    }),
  );
