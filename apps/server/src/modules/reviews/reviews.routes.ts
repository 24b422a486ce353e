import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import { toPendingReview, toReviewSummary, toReviewView } from './reviews.mapper.ts';
import type { ReviewsService } from './reviews.service.ts';

export function reviewsRoutes(app: FastifyInstance, reviews: ReviewsService): void {
  const auth = { preHandler: app.requireUser };
  route(
    app,
    contracts.pendingReviews,
    async ({ user }) => ({
      pending: (await reviews.pending(user.id)).map(toPendingReview),
    }),
    auth,
  );

  route(
    app,
    contracts.createReview,
    async ({ user, body }) => {
      const review = await reviews.create(user.id, {
        paymentId: body.payment_id,
        productId: body.product_id,
        rating: body.rating,
        comment: body.comment,
      });
      return toReviewView(review);
    },
    auth,
  );

  route(app, contracts.reviewSummary, async () => ({
    products: (await reviews.summary()).map(toReviewSummary),
  }));
}
