import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReviewInput } from '@lumina/contracts';
import { createReviewContract, type PendingReview } from '@lumina/contracts';
import type { z } from 'zod';
import { api } from '@/lib/api-client';
import { pendingReviewsQueryKey } from './get-pending-reviews';

export type ReviewBody = z.input<typeof ReviewInput>;

export const submitReview = (body: ReviewBody) => api.call(createReviewContract, { body });

/** Submits a review; the reviewed payment leaves the pending list at once (and the list is refetched). */
export function useSubmitReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitReview,
    onSuccess: (_review, input) => {
      queryClient.setQueryData<{ pending: PendingReview[] }>(pendingReviewsQueryKey, (old) =>
        old ? { pending: old.pending.filter((p) => p.payment_id !== input.payment_id) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: pendingReviewsQueryKey });
    },
  });
}
