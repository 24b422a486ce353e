import { z } from 'zod';
import { defineContract } from './contract.ts';
import { text } from './text.ts';

export const REVIEW_COMMENT_MAX = 1000;

export const PendingReview = z
  .object({
    payment_id: z.uuid(),
    product_id: z.string().describe('The product bought (a photo shoot or a credit package)'),
    package_name: z.string().describe('The product’s name, as bought (kept for older clients)'),
    product_name: z.string().describe('The product’s name, as bought'),
    paid_at: z.iso.datetime(),
  })
  .meta({ id: 'PendingReview' });
export type PendingReview = z.infer<typeof PendingReview>;

export const pendingReviewsContract = defineContract({
  method: 'GET',
  path: '/api/reviews',
  summary: "The user's paid purchases that have no review yet",
  tags: ['reviews'],
  response: z.object({ pending: z.array(PendingReview) }).meta({ id: 'PendingReviews' }),
});

// No component id: `comment` is trimmed, so its input and output schemas differ.
export const ReviewInput = z.object({
  payment_id: z.uuid('Not a payment id'),
  product_id: text().min(1).max(64),
  rating: z.int('The rating is a whole number from 1 to 5').min(1).max(5),
  comment: text({ multiline: true }).trim().max(REVIEW_COMMENT_MAX).optional(),
});

export const ReviewView = z
  .object({
    id: z.uuid(),
    payment_id: z.uuid(),
    product_id: z.string(),
    rating: z.int(),
    comment: z.string().nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Review' });

export const createReviewContract = defineContract({
  method: 'POST',
  path: '/api/reviews',
  summary: 'Reviews a paid purchase (once per payment; a second is a 409)',
  tags: ['reviews'],
  body: ReviewInput,
  status: 201,
  response: ReviewView,
});

export const ReviewSummary = z
  .object({ product_id: z.string(), average: z.number(), count: z.int() })
  .meta({ id: 'ReviewSummary' });

export const reviewSummaryContract = defineContract({
  method: 'GET',
  path: '/api/reviews/summary',
  summary: 'Average rating and count per product (public, for the landing page)',
  tags: ['reviews'],
  auth: false,
  response: z.object({ products: z.array(ReviewSummary) }).meta({ id: 'ReviewSummaries' }),
});
