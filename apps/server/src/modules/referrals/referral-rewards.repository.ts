import { and, eq, gt, gte, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { payments, referrals, users, type ReferralRow } from '../../db/schema/index.ts';

/** Drizzle queries for completing and clawing back referrals; each takes the database or a transaction. */

/** The person's referral still waiting for a first payment, locked for the rest of the transaction. */
export async function lockJoined(db: DbOrTx, referredId: string): Promise<ReferralRow | undefined> {
  const [row] = await db
    .select()
    .from(referrals)
    .where(and(eq(referrals.referredId, referredId), eq(referrals.status, 'joined')))
    .for('update');
  return row;
}

/**
 * Whether the person has a paid payment (a refunded one counts: it was paid), other than `except` when
 * given: with it, whether the payment `except` is not their first; without it, whether they paid at all.
 */
export async function hasPaidPayment(db: DbOrTx, userId: string, except?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        except === undefined ? undefined : ne(payments.id, except),
        isNotNull(payments.paidAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * The referrer's sign-up time, locking their user row (no key update) so that completions crediting
 * the same referrer run one after another and the monthly cap is counted exactly.
 */
export async function lockReferrer(db: DbOrTx, referrerId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, referrerId))
    .for('no key update');
  return row?.createdAt;
}

/**
 * Referrals that earned `referrerId` a reward since `since`. Clawed-back ones still count: a refund
 * must not free a place under the cap for another reward.
 */
export async function countRewardedSince(db: DbOrTx, referrerId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(referrals)
    .where(
      and(
        eq(referrals.referrerId, referrerId),
        gt(referrals.referrerReward, 0),
        gte(referrals.completedAt, since),
      ),
    );
  return row?.n ?? 0;
}

export async function markCompleted(
  db: DbOrTx,
  id: string,
  values: {
    status: 'completed' | 'unrewarded';
    paymentId: string;
    referrerReward: number;
    welcomeReward: number;
    completedAt: Date;
  },
): Promise<void> {
  await db.update(referrals).set(values).where(eq(referrals.id, id));
}

/** The referral a payment completed, if it still holds rewards to take back, locked. */
export async function lockRewardedByPayment(db: DbOrTx, paymentId: string): Promise<ReferralRow | undefined> {
  const [row] = await db
    .select()
    .from(referrals)
    .where(and(eq(referrals.paymentId, paymentId), inArray(referrals.status, ['completed', 'unrewarded'])))
    .for('update');
  return row;
}

export async function markClawedBack(db: DbOrTx, id: string, at: Date): Promise<void> {
  await db.update(referrals).set({ status: 'clawed_back', clawedBackAt: at }).where(eq(referrals.id, id));
}

/** The completed referral of each payment that has no fingerprint yet, with the payment's intent. */
export async function findAwaitingFingerprint(
  db: DbOrTx,
  paymentIds: readonly string[],
): Promise<Array<{ id: string; paymentIntent: string | null }>> {
  if (paymentIds.length === 0) return [];
  return db
    .select({ id: referrals.id, paymentIntent: payments.stripePaymentIntent })
    .from(referrals)
    .innerJoin(payments, eq(payments.id, referrals.paymentId))
    .where(and(inArray(referrals.paymentId, [...paymentIds]), sql`${referrals.paymentFingerprint} is null`));
}

export async function saveFingerprint(db: DbOrTx, id: string, fingerprint: string): Promise<void> {
  await db
    .update(referrals)
    .set({ paymentFingerprint: fingerprint })
    .where(and(eq(referrals.id, id), sql`${referrals.paymentFingerprint} is null`));
}
