import { and, desc, eq, gt, gte, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { payments, referralCodes, referrals, users, type ReferralRow } from '../../db/schema/index.ts';

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

/** A first payment started the referral's settling period: its rewards are recorded, not yet granted. */
export async function markSettling(
  db: DbOrTx,
  id: string,
  values: {
    paymentId: string;
    referrerReward: number;
    welcomeReward: number;
    completedAt: Date;
    settlesAt: Date;
  },
): Promise<void> {
  await db
    .update(referrals)
    .set({ ...values, status: 'settling' })
    .where(eq(referrals.id, id));
}

/** The referral, locked, if it is still settling. */
export async function lockSettling(db: DbOrTx, id: string): Promise<ReferralRow | undefined> {
  const [row] = await db
    .select()
    .from(referrals)
    .where(and(eq(referrals.id, id), eq(referrals.status, 'settling')))
    .for('update');
  return row;
}

export async function markSettled(db: DbOrTx, id: string, status: 'completed' | 'unrewarded'): Promise<void> {
  await db.update(referrals).set({ status }).where(eq(referrals.id, id));
}

/**
 * Whether the referred person's sign-up address is one the referrer used (making a code, or binding
 * to their own referrer) or one another person the referrer brought in signed up from.
 */
export async function addressShared(db: DbOrTx, referral: ReferralRow): Promise<boolean> {
  const hash = referral.signupIpHash;
  if (!hash) return false;
  const [code] = await db
    .select({ id: referralCodes.id })
    .from(referralCodes)
    .where(and(eq(referralCodes.userId, referral.referrerId), eq(referralCodes.ownerIpHash, hash)))
    .limit(1);
  if (code) return true;
  const [other] = await db
    .select({ id: referrals.id })
    .from(referrals)
    .where(
      and(
        eq(referrals.signupIpHash, hash),
        ne(referrals.id, referral.id),
        or(eq(referrals.referrerId, referral.referrerId), eq(referrals.referredId, referral.referrerId)),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/** Whether another person the referrer brought in paid with the same card. */
export async function cardShared(db: DbOrTx, referral: ReferralRow, fingerprint: string): Promise<boolean> {
  const [other] = await db
    .select({ id: referrals.id })
    .from(referrals)
    .where(
      and(
        eq(referrals.referrerId, referral.referrerId),
        eq(referrals.paymentFingerprint, fingerprint),
        ne(referrals.id, referral.id),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/**
 * Makes the referrer's referrals matching `match` that are still settling not eligible: their pending
 * rewards are never granted. Returns the ids changed.
 */
export async function refuseUnpaid(
  db: DbOrTx,
  referrerId: string,
  match: { signupIpHash: string } | { paymentFingerprint: string },
  reason: 'shared_address' | 'shared_card',
): Promise<string[]> {
  const rows = await db
    .update(referrals)
    .set({ status: 'not_eligible', ineligibleReason: reason, referrerReward: 0, welcomeReward: 0 })
    .where(
      and(
        eq(referrals.referrerId, referrerId),
        'signupIpHash' in match
          ? eq(referrals.signupIpHash, match.signupIpHash)
          : eq(referrals.paymentFingerprint, match.paymentFingerprint),
        eq(referrals.status, 'settling'),
      ),
    )
    .returning({ id: referrals.id });
  return rows.map((r) => r.id);
}

/** A first payment that shares an address or card: the referral ends here, paying nothing. */
export async function markNotEligible(
  db: DbOrTx,
  id: string,
  values: { paymentId: string; completedAt: Date; reason: 'shared_address' | 'shared_card' },
): Promise<void> {
  await db
    .update(referrals)
    .set({
      status: 'not_eligible',
      ineligibleReason: values.reason,
      paymentId: values.paymentId,
      completedAt: values.completedAt,
      referrerReward: 0,
      welcomeReward: 0,
    })
    .where(eq(referrals.id, id));
}

/** The payment intents of the person's latest paid payments, to read their cards' fingerprints. */
export async function latestPaymentIntents(db: DbOrTx, userId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ intent: payments.stripePaymentIntent })
    .from(payments)
    .where(
      and(eq(payments.userId, userId), isNotNull(payments.paidAt), isNotNull(payments.stripePaymentIntent)),
    )
    .orderBy(desc(payments.paidAt))
    .limit(limit);
  return rows.map((r) => r.intent!);
}

/** The referral a payment completed, if it still holds rewards to take back, locked. */
export async function lockRewardedByPayment(db: DbOrTx, paymentId: string): Promise<ReferralRow | undefined> {
  const [row] = await db
    .select()
    .from(referrals)
    .where(
      and(
        eq(referrals.paymentId, paymentId),
        inArray(referrals.status, ['settling', 'completed', 'unrewarded']),
      ),
    )
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
): Promise<Array<{ referral: ReferralRow; paymentIntent: string | null }>> {
  if (paymentIds.length === 0) return [];
  return db
    .select({ referral: referrals, paymentIntent: payments.stripePaymentIntent })
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
