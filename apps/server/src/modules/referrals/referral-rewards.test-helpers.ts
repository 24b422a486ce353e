import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestEnv } from '../../../test/harness.ts';
import { creditBalances, creditLedger, referralCodes, referrals, users } from '../../db/schema/index.ts';

/**
 * Binds `referredId` to `referrerId` the way the tracking route leaves it (a code and a `joined` row),
 * written straight to the database so reward tests do not depend on the binding routes. The referrer's
 * account is made `referrerAgeHours` old (old enough for a reward unless a test says otherwise).
 */
export async function bindReferral(
  env: TestEnv,
  referrerId: string,
  referredId: string,
  options: { referrerAgeHours?: number } = {},
): Promise<string> {
  const { db } = env.container.database;
  const hours = options.referrerAgeHours ?? 48;
  await db
    .update(users)
    .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
    .where(eq(users.id, referrerId));
  const [code] = await db
    .insert(referralCodes)
    .values({ userId: referrerId, code: `T${randomBytes(5).toString('hex')}` })
    .returning();
  const [referral] = await db
    .insert(referrals)
    .values({ referrerId, referredId, codeId: code!.id })
    .returning();
  return referral!.id;
}

export async function referralRow(env: TestEnv, id: string) {
  const [row] = await env.container.database.db.select().from(referrals).where(eq(referrals.id, id));
  return row!;
}

/** The person's ledger entries with `reason`. */
export async function entries(env: TestEnv, userId: string, reason: string) {
  return env.container.database.db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, reason)))
    .orderBy(creditLedger.id);
}

/** The balance row equals the sum of the person's ledger entries, and is `expected`. */
export async function expectBalance(env: TestEnv, userId: string, expected: number) {
  const { db } = env.container.database;
  const [sum] = await db
    .select({ total: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  const [row] = await db.select().from(creditBalances).where(eq(creditBalances.userId, userId));
  expect(row?.balance ?? 0).toBe(sum!.total);
  expect(sum!.total).toBe(expected);
}
