import type { Database } from '../../db/client.ts';
import type { ReviewRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';
import {
  findOwnPayment,
  findUnreviewedPayments,
  insertReviewOnce,
  summariseByProduct,
} from './reviews.repository.ts';

export interface PendingReviewItem {
  paymentId: string;
  productId: string;
  packageName: string;
  paidAt: Date;
}

export interface ProductRating {
  productId: string;
  average: number;
  count: number;
}

/** Reviews of paid purchases: one per payment, only by the person who paid. */
export class ReviewsService {
  constructor(private readonly db: Database) {}

  /** Paid payments of the user that have no review yet, newest first. */
  async pending(userId: string): Promise<PendingReviewItem[]> {
    const rows = await findUnreviewedPayments(this.db, userId);
    return rows.map((r) => ({ ...r, paidAt: r.paidAt ?? r.createdAt }));
  }

  async create(
    userId: string,
    input: { paymentId: string; productId: string; rating: number; comment?: string },
  ): Promise<ReviewRow> {
    const payment = await findOwnPayment(this.db, userId, input.paymentId);
    if (!payment) throw notFound('This purchase');
    if (payment.status !== 'paid') {
      throw new AppError('VALIDATION_FAILED', 'Only a completed purchase can be reviewed.');
    }
    if (payment.packageId !== input.productId) {
      throw new AppError('VALIDATION_FAILED', 'The product does not match this purchase.');
    }
    const row = await insertReviewOnce(this.db, {
      userId,
      paymentId: payment.id,
      productId: payment.packageId,
      rating: input.rating,
      comment: input.comment ? input.comment : null,
    });
    if (!row) throw new AppError('CONFLICT', 'You have already reviewed this purchase.');
    return row;
  }

  async summary(): Promise<ProductRating[]> {
    const rows = await summariseByProduct(this.db);
    return rows.map((r) => ({
      productId: r.productId,
      average: Math.round(Number(r.average ?? 0) * 100) / 100,
      count: Number(r.count),
    }));
  }
}
