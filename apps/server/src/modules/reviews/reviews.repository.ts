import { and, avg, count, desc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { payments, reviews, type PaymentRow, type ReviewRow } from '../../db/schema/index.ts';

/** Queries on reviews and the paid purchases they belong to. */

/** Paid payments of the user that have no review yet, newest first. */
export function findUnreviewedPayments(db: DbOrTx, userId: string) {
  return db
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
}

/** The user's own payment, or undefined (someone else's is as good as missing). */
export async function findOwnPayment(
  db: DbOrTx,
  userId: string,
  paymentId: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)));
  return row;
}

/** The new review, or undefined when the payment already has one. */
export async function insertReviewOnce(
  db: DbOrTx,
  values: { userId: string; paymentId: string; productId: string; rating: number; comment: string | null },
): Promise<ReviewRow | undefined> {
  const [row] = await db
    .insert(reviews)
    .values(values)
    .onConflictDoNothing({ target: reviews.paymentId })
    .returning();
  return row;
}

/** Average rating (as text, from Postgres) and count per product. */
export function summariseByProduct(db: DbOrTx) {
  return db
    .select({ productId: reviews.productId, average: avg(reviews.rating), count: count() })
    .from(reviews)
    .groupBy(reviews.productId)
    .orderBy(reviews.productId);
}
