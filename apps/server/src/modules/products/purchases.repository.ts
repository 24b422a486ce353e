import { and, asc, desc, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  images,
  jobs,
  payments,
  purchases,
  type PaymentRow,
  type PurchaseRow,
} from '../../db/schema/index.ts';

/** Drizzle queries for purchases; each takes the database or an open transaction. */

export type NewPurchase = typeof purchases.$inferInsert;

/** Purchases people do not see: a checkout not paid (yet, or ever). */
const HIDDEN = ['pending_payment', 'cancelled'];

export async function insertPurchase(db: DbOrTx, row: NewPurchase): Promise<PurchaseRow> {
  const [inserted] = await db.insert(purchases).values(row).returning();
  return inserted!;
}

export async function findPurchase(db: DbOrTx, id: string): Promise<PurchaseRow | undefined> {
  const [row] = await db.select().from(purchases).where(eq(purchases.id, id));
  return row;
}

/** The caller's listed purchase, or undefined (someone else's, or one not paid, is as good as missing). */
export async function findOwnPurchase(
  db: DbOrTx,
  userId: string,
  id: string,
): Promise<PurchaseRow | undefined> {
  const [row] = await db
    .select()
    .from(purchases)
    .where(and(eq(purchases.id, id), eq(purchases.userId, userId), notInArray(purchases.status, HIDDEN)));
  return row;
}

export async function listOwnPurchases(db: DbOrTx, userId: string): Promise<PurchaseRow[]> {
  return db
    .select()
    .from(purchases)
    .where(and(eq(purchases.userId, userId), notInArray(purchases.status, HIDDEN)))
    .orderBy(desc(purchases.createdAt), desc(purchases.id));
}

/**
 * The purchase a payment pays for becomes paid, once: conditional on it still waiting for the
 * payment. A credit package is then ready; a photo shoot waits for its photos until the pipeline
 * starts it.
 */
export async function markPaid(db: DbOrTx, paymentId: string): Promise<PurchaseRow | undefined> {
  const [row] = await db
    .update(purchases)
    .set({
      status: sql`case when ${purchases.kind} = 'credits' then 'ready' else 'waiting_for_photos' end`,
      paidAt: sql`now()`,
      deliveredAt: sql`case when ${purchases.kind} = 'credits' then now() else null end`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(purchases.paymentId, paymentId), eq(purchases.status, 'pending_payment')))
    .returning();
  return row;
}

export async function cancelIfPending(db: DbOrTx, paymentId: string): Promise<void> {
  await db
    .update(purchases)
    .set({ status: 'cancelled', updatedAt: sql`now()` })
    .where(and(eq(purchases.paymentId, paymentId), eq(purchases.status, 'pending_payment')));
}

/** The end of a failed purchase's message while its payment is being refunded, and once it was. */
export const BEING_REFUNDED = 'is being refunded.';
const WAS_REFUNDED = 'was refunded.';

/** The payment of a purchase went back in full: the purchase is refunded (kept as the first time). */
export async function markRefundedByPayment(db: DbOrTx, paymentId: string): Promise<void> {
  await db
    .update(purchases)
    .set({
      status: 'refunded',
      // A failed shoot's "is being refunded." (purchase-refunds.ts) now says it was.
      error: sql`replace(${purchases.error}, ${BEING_REFUNDED}, ${WAS_REFUNDED})`,
      refundedAt: sql`coalesce(${purchases.refundedAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(purchases.paymentId, paymentId),
        notInArray(purchases.status, ['pending_payment', 'cancelled', 'refunded']),
      ),
    );
}

/**
 * The one transition to `failed`: conditional on the purchase not having failed or been refunded
 * already, and stamping `refunded_at`, so of any number of concurrent failures exactly one refunds.
 */
export async function failOnce(db: DbOrTx, id: string, error: string): Promise<PurchaseRow | undefined> {
  const [row] = await db
    .update(purchases)
    .set({ status: 'failed', error, refundedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        eq(purchases.id, id),
        notInArray(purchases.status, ['failed', 'refunded', 'pending_payment', 'cancelled']),
        isNull(purchases.refundedAt),
      ),
    )
    .returning();
  return row;
}

export async function setOutcome(
  db: DbOrTx,
  id: string,
  values: { status: 'failed' | 'refunded'; error: string },
): Promise<void> {
  await db
    .update(purchases)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(purchases.id, id));
}

/** Gives a photo shoot waiting for photos its set; undefined when it is not waiting any more. */
export async function attachSet(db: DbOrTx, id: string, setId: string): Promise<PurchaseRow | undefined> {
  const [row] = await db
    .update(purchases)
    .set({ setId, updatedAt: sql`now()` })
    .where(and(eq(purchases.id, id), eq(purchases.status, 'waiting_for_photos')))
    .returning();
  return row;
}

export async function paymentsByIds(db: DbOrTx, ids: string[]): Promise<PaymentRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(payments).where(inArray(payments.id, ids));
}

/** The jobs that are stages of these purchases (training, generations), oldest first. */
export async function jobsOf(db: DbOrTx, purchaseIds: string[]) {
  if (purchaseIds.length === 0) return [];
  return db
    .select({
      purchaseId: jobs.purchaseId,
      kind: jobs.kind,
      status: jobs.status,
      percent: jobs.percent,
      numImages: jobs.numImages,
    })
    .from(jobs)
    .where(inArray(jobs.purchaseId, purchaseIds))
    .orderBy(asc(jobs.createdAt));
}

export type PurchaseJob = Awaited<ReturnType<typeof jobsOf>>[number];

/** Images made by these purchases' succeeded jobs and still the buyer's, in the order they were made. */
export async function deliveredImages(db: DbOrTx, userId: string, purchaseIds: string[]) {
  if (purchaseIds.length === 0) return [];
  return db
    .select({
      id: images.id,
      purchaseId: jobs.purchaseId,
      storageKey: images.storageKey,
      thumbnailKey: images.thumbnailKey,
      contentType: images.contentType,
    })
    .from(images)
    .innerJoin(jobs, eq(images.jobId, jobs.id))
    .where(
      and(inArray(jobs.purchaseId, purchaseIds), eq(jobs.status, 'succeeded'), eq(images.userId, userId)),
    )
    .orderBy(asc(images.createdAt), asc(images.id));
}

export type DeliveredImage = Awaited<ReturnType<typeof deliveredImages>>[number];
