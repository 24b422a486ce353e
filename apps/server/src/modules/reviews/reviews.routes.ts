import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import type { ReviewsService } from './reviews.service.ts';

export function reviewsRoutes(app: FastifyInstance, reviews: ReviewsService): void {
  const auth = { preHandler: app.requireUser };
  route(
    app,
    contracts.pendingReviews,
    async ({ user }) => ({
      pending: (await reviews.pending(user.id)).map((p) => ({
        payment_id: p.paymentId,
        product_id: p.productId,
        package_name: p.packageName,
        paid_at: p.paidAt.toISOString(),
      })),
    }),
    auth,
  );

  route(
    app,
    contracts.createReview,
    async ({ user, body }) => {
      const r = await reviews.create(user.id, {
        paymentId: body.payment_id,
        productId: body.product_id,
        rating: body.rating,
        comment: body.comment,
      });
      return {
        id: r.id,
        payment_id: r.paymentId,
        product_id: r.productId,
        rating: r.rating,
        comment: r.comment,
        created_at: r.createdAt.toISOString(),
      };
    },
    auth,
  );

  route(app, contracts.reviewSummary, async () => ({
    products: (await reviews.summary()).map((s) => ({
      product_id: s.productId,
      average: s.average,
      count: s.count,
    })),
  }));
}
