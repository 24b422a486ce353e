import { and, avg, count, eq, isNull, desc } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments, reviews, type ReviewRow } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../errors.ts';

export interface PendingReviewItem {
  paymentId: string;
  productId: string;
  packageName: string;
  paidAt: Date;
}

/** Reviews of paid purchases: one per payment, only by the person who paid. */
export class ReviewsService {
  constructor(private readonly db: Database) {}

  /** Paid payments of the user that have no review yet, newest first. */
  async pending(userId: string): Promise<PendingReviewItem[]> {
    const rows = await this.db
      .select({
        paymentId: payments.id,
        productId: payments.packageId,
        packageName: payments.packageName,
        paidAt: payments.paidAt,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .leftJoin(reviews, eq(reviews.paymentId, payments.id))
      .where(and(eq(payments.userId, userId), eq(payments.status, 'paid'), isNull(reviews.id)))
      .orderBy(desc(payments.paidAt));
    return rows.map((r) => ({ ...r, paidAt: r.paidAt ?? r.createdAt }));
  }

  async create(
    userId: string,
    input: { paymentId: string; productId: string; rating: number; comment?: string },
  ): Promise<ReviewRow> {
    const [payment] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.id, input.paymentId), eq(payments.userId, userId)));
    if (!payment) throw notFound('This purchase');
    if (payment.status !== 'paid') {
      throw new AppError('VALIDATION_FAILED', 'Only a completed purchase can be reviewed.');
    }
    if (payment.packageId !== input.productId) {
      throw new AppError('VALIDATION_FAILED', 'The product does not match this purchase.');
    }
    const [row] = await this.db
      .insert(reviews)
      .values({
        userId,
        paymentId: payment.id,
        productId: payment.packageId,
        rating: input.rating,
        comment: input.comment ? input.comment : null,
      })
      .onConflictDoNothing({ target: reviews.paymentId })
      .returning();
    if (!row) throw new AppError('CONFLICT', 'You have already reviewed this purchase.');
    return row;
  }

  async summary(): Promise<Array<{ productId: string; average: number; count: number }>> {
    const rows = await this.db
      .select({ productId: reviews.productId, average: avg(reviews.rating), count: count() })
      .from(reviews)
      .groupBy(reviews.productId)
      .orderBy(reviews.productId);
    return rows.map((r) => ({
      productId: r.productId,
      average: Math.round(Number(r.average ?? 0) * 100) / 100,
      count: Number(r.count),
    }));
  }
}
