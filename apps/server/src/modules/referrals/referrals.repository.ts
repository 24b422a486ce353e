import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  referralCodes,
  referrals,
  users,
  type ReferralCodeRow,
  type ReferralRow,
} from '../../db/schema/index.ts';

/** Queries on referral codes and the referrals bound through them. Codes match without regard to case. */

const sameCode = (code: string) => sql`lower(${referralCodes.code}) = lower(${code})`;

/** Any code by its text, deleted ones included (they keep their history), with its owner's row. */
export async function findCode(db: DbOrTx, code: string) {
  const [row] = await db
    .select({ code: referralCodes, owner: { id: users.id, email: users.email, createdAt: users.createdAt } })
    .from(referralCodes)
    .innerJoin(users, eq(users.id, referralCodes.userId))
    .where(sameCode(code));
  return row;
}

/** One of the person's own codes that is not deleted, or undefined (someone else's is as good as missing). */
export async function findOwnCode(
  db: DbOrTx,
  userId: string,
  code: string,
): Promise<ReferralCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(referralCodes)
    .where(and(sameCode(code), eq(referralCodes.userId, userId), isNull(referralCodes.deletedAt)));
  return row;
}

export async function findDefaultCode(db: DbOrTx, userId: string): Promise<ReferralCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(referralCodes)
    .where(and(eq(referralCodes.userId, userId), eq(referralCodes.isDefault, true)));
  return row;
}

/** The new code, or undefined when its text (any case) is taken or the person already has a default. */
export async function insertCode(
  db: DbOrTx,
  values: { userId: string; code: string; isDefault: boolean; expiresAt: Date | null; ownerIpHash: string },
): Promise<ReferralCodeRow | undefined> {
  const [row] = await db.insert(referralCodes).values(values).onConflictDoNothing().returning();
  return row;
}

export async function countLiveCodes(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(referralCodes)
    .where(and(eq(referralCodes.userId, userId), isNull(referralCodes.deletedAt)));
  return Number(row?.n ?? 0);
}

/** The person's codes, the default first, then oldest first. */
export function listCodes(db: DbOrTx, userId: string): Promise<ReferralCodeRow[]> {
  return db
    .select()
    .from(referralCodes)
    .where(eq(referralCodes.userId, userId))
    .orderBy(desc(referralCodes.isDefault), asc(referralCodes.createdAt), asc(referralCodes.id));
}

export async function updateCode(
  db: DbOrTx,
  id: string,
  values: Partial<Pick<ReferralCodeRow, 'active' | 'deletedAt'>>,
): Promise<ReferralCodeRow> {
  const [row] = await db
    .update(referralCodes)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(referralCodes.id, id))
    .returning();
  return row!;
}

export async function addVisit(db: DbOrTx, codeId: string): Promise<void> {
  await db
    .update(referralCodes)
    .set({ visits: sql`${referralCodes.visits} + 1` })
    .where(eq(referralCodes.id, codeId));
}

export async function findReferralOf(db: DbOrTx, referredId: string): Promise<ReferralRow | undefined> {
  const [row] = await db.select().from(referrals).where(eq(referrals.referredId, referredId));
  return row;
}

/** The new binding, or undefined when the person is already bound (one referrer each, however many race). */
export async function insertReferralOnce(
  db: DbOrTx,
  values: { referrerId: string; referredId: string; codeId: string; signupIpHash: string },
): Promise<ReferralRow | undefined> {
  const [row] = await db
    .insert(referrals)
    .values(values)
    .onConflictDoNothing({ target: referrals.referredId })
    .returning();
  return row;
}

/**
 * Per code: sign-ups, those whose first payment stands (completed or completed unrewarded; a clawed
 * back one was refunded), and reward credits kept (completed, not clawed back).
 */
export function countsPerCode(db: DbOrTx, codeIds: string[]) {
  if (codeIds.length === 0) return Promise.resolve([]);
  return db
    .select({
      codeId: referrals.codeId,
      signups: count(),
      completed: sql<number>`count(*) filter (where ${referrals.status} in ('settling', 'completed', 'unrewarded'))`,
      pending: sql<number>`coalesce(sum(${referrals.referrerReward}) filter (where ${referrals.status} = 'settling'), 0)`,
      earned: sql<number>`coalesce(sum(${referrals.referrerReward}) filter (where ${referrals.status} = 'completed'), 0)`,
    })
    .from(referrals)
    .where(inArray(referrals.codeId, codeIds))
    .groupBy(referrals.codeId);
}

/** The people the referrer brought in, newest first, with the code each came through. */
export function listReferrals(db: DbOrTx, referrerId: string) {
  return db
    .select({ referral: referrals, email: users.email, code: referralCodes.code })
    .from(referrals)
    .innerJoin(users, eq(users.id, referrals.referredId))
    .innerJoin(referralCodes, eq(referralCodes.id, referrals.codeId))
    .where(eq(referrals.referrerId, referrerId))
    .orderBy(desc(referrals.boundAt), desc(referrals.id));
}

/** Holds the person's row until the transaction ends: their code count is checked and changed by one at a time. */
export async function lockUser(db: DbOrTx, userId: string): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** When the person signed up (the binding window counts from it). */
export async function findUser(db: DbOrTx, userId: string) {
  const [row] = await db
    .select({ id: users.id, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
