import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { jobs, purchases, users, type JobRow, type PurchaseRow } from '../../db/schema/index.ts';

/** Drizzle queries of the photo shoot pipeline; each takes the database or an open transaction. */

export async function findPurchase(db: DbOrTx, id: string): Promise<PurchaseRow | undefined> {
  const [row] = await db.select().from(purchases).where(eq(purchases.id, id));
  return row;
}

/** The purchase, its row locked until the transaction ends (two starts or advances queue up here). */
export async function lockPurchase(tx: DbOrTx, id: string): Promise<PurchaseRow | undefined> {
  const [row] = await tx.select().from(purchases).where(eq(purchases.id, id)).for('update');
  return row;
}

/**
 * Moves a purchase on only from the statuses given. Returns the updated row, or undefined when it was
 * no longer in one of them: how each stage starts once however often it is asked to.
 */
export async function movePurchase(
  tx: DbOrTx,
  id: string,
  from: readonly string[],
  set: Partial<Pick<PurchaseRow, 'status' | 'trainedModelId' | 'imagesTotal' | 'deliveredAt'>>,
): Promise<PurchaseRow | undefined> {
  const [row] = await tx
    .update(purchases)
    .set({ ...set, updatedAt: sql`now()` })
    .where(and(eq(purchases.id, id), inArray(purchases.status, [...from])))
    .returning();
  return row;
}

/** The jobs a purchase made (its training, then its generations), oldest first. */
export function purchaseJobs(db: DbOrTx, purchaseId: string): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(eq(jobs.purchaseId, purchaseId))
    .orderBy(asc(jobs.createdAt), asc(jobs.id));
}

/**
 * Claims the "your shoot is ready" email for one sender: true when this call set `notified_at` (a
 * ready purchase not yet told about). `releaseNotification` gives the claim back when sending failed.
 */
export async function claimNotification(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db
    .update(purchases)
    .set({ notifiedAt: sql`now()` })
    .where(and(eq(purchases.id, id), eq(purchases.status, 'ready'), isNull(purchases.notifiedAt)))
    .returning({ id: purchases.id });
  return rows.length > 0;
}

export async function releaseNotification(db: DbOrTx, id: string): Promise<void> {
  await db.update(purchases).set({ notifiedAt: null }).where(eq(purchases.id, id));
}

export async function userEmail(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}
