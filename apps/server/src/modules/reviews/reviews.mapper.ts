import type { PendingReview, ReviewSummary, ReviewView } from '@lumina/contracts';
import type { z } from 'zod';
import type { ReviewRow } from '../../db/schema/index.ts';
import type { PendingReviewItem, ProductRating } from './reviews.service.ts';

export function toPendingReview(p: PendingReviewItem): PendingReview {
  return {
    payment_id: p.paymentId,
    product_id: p.productId,
    package_name: p.packageName,
    product_name: p.packageName,
    paid_at: p.paidAt.toISOString(),
  };
}

export function toReviewView(r: ReviewRow): z.infer<typeof ReviewView> {
  return {
    id: r.id,
    payment_id: r.paymentId,
    product_id: r.productId,
    rating: r.rating,
    comment: r.comment,
    created_at: r.createdAt.toISOString(),
  };
}

export function toReviewSummary(s: ProductRating): z.infer<typeof ReviewSummary> {
  return { product_id: s.productId, average: s.average, count: s.count };
}
