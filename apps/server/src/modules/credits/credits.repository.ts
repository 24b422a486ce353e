import { and, asc, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  creditBalances,
  creditLedger,
  images,
  jobs,
  payments,
  videos,
  type CreditLedgerRow,
} from '../../db/schema/index.ts';

/** Drizzle queries for the ledger; each takes the database or an open transaction. */

export async function findEntryByKey(
  db: DbOrTx,
  idempotencyKey: string,
): Promise<CreditLedgerRow | undefined> {
  const [row] = await db.select().from(creditLedger).where(eq(creditLedger.idempotencyKey, idempotencyKey));
  return row;
}

export async function readBalance(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ balance: creditBalances.balance })
    .from(creditBalances)
    .where(eq(creditBalances.userId, userId));
  return row?.balance ?? 0;
}

/**
 * Takes `amount` from the balance only if it covers it. One conditional UPDATE: Postgres locks the
 * row and re-checks the condition, so concurrent spends are serialised per user. Returns the new
 * balance, or undefined when the balance was too low.
 */
export async function debitIfCovered(
  db: DbOrTx,
  userId: string,
  amount: number,
): Promise<number | undefined> {
  const [row] = await db
    .update(creditBalances)
    .set({ balance: sql`${creditBalances.balance} - ${amount}`, updatedAt: sql`now()` })
    .where(and(eq(creditBalances.userId, userId), gte(creditBalances.balance, amount)))
    .returning({ balance: creditBalances.balance });
  return row?.balance;
}

/** Adds a (possibly negative) amount to the balance, creating the row on first use. */
export async function applyDelta(db: DbOrTx, userId: string, amount: number): Promise<number> {
  const [row] = await db
    .insert(creditBalances)
    .values({ userId, balance: amount })
    .onConflictDoUpdate({
      target: creditBalances.userId,
      set: { balance: sql`${creditBalances.balance} + excluded.balance`, updatedAt: sql`now()` },
    })
    .returning({ balance: creditBalances.balance });
  return row!.balance;
}

export interface NewEntry {
  userId: string;
  amount: number;
  balanceAfter: number;
  reason: string;
  reference: string | null;
  idempotencyKey: string;
}

/** Appends an entry; undefined when an entry with the same idempotency key already exists. */
export async function appendEntry(db: DbOrTx, entry: NewEntry): Promise<CreditLedgerRow | undefined> {
  const [row] = await db
    .insert(creditLedger)
    .values(entry)
    .onConflictDoNothing({ target: creditLedger.idempotencyKey })
    .returning();
  return row;
}

/** A user's entries, newest first (`id` order), strictly before `beforeId` when given. */
export async function listEntries(
  db: DbOrTx,
  userId: string,
  options: { beforeId?: number; limit: number },
): Promise<CreditLedgerRow[]> {
  return db
    .select()
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.userId, userId),
        options.beforeId === undefined ? undefined : lt(creditLedger.id, options.beforeId),
      ),
    )
    .orderBy(desc(creditLedger.id))
    .limit(options.limit);
}

/**
 * The history's references: the jobs (with their results) and the payments behind ledger entries,
 * limited to the owner's own rows so a reference can never reveal someone else's.
 */
export async function findHistoryReferences(
  db: DbOrTx,
  userId: string,
  refs: { jobIds: string[]; paymentIds: string[] },
) {
  const { jobIds, paymentIds } = refs;
  const [jobRows, imageRows, videoRows, paymentRows] = await Promise.all([
    jobIds.length
      ? db
          .select()
          .from(jobs)
          .where(and(eq(jobs.userId, userId), inArray(jobs.id, jobIds)))
      : [],
    jobIds.length
      ? db
          .select({
            id: images.id,
            jobId: images.jobId,
            storageKey: images.storageKey,
            thumbnailKey: images.thumbnailKey,
          })
          .from(images)
          .where(and(eq(images.userId, userId), inArray(images.jobId, jobIds)))
          .orderBy(asc(images.createdAt), asc(images.id))
      : [],
    jobIds.length
      ? db
          .select({
            id: videos.id,
            jobId: videos.jobId,
            storageKey: videos.storageKey,
            posterKey: videos.posterKey,
          })
          .from(videos)
          .where(and(eq(videos.userId, userId), inArray(videos.jobId, jobIds)))
      : [],
    paymentIds.length
      ? db
          .select({ id: payments.id, packageName: payments.packageName, status: payments.status })
          .from(payments)
          .where(and(eq(payments.userId, userId), inArray(payments.id, paymentIds)))
      : [],
  ]);
  return { jobRows, imageRows, videoRows, paymentRows };
}
