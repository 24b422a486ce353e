import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { createUser } from '../../../test/factories.ts';
import { creditBalances, creditLedger } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { CreditLedger } from './credit-ledger.service.ts';

describe(`credit ledger on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });
  let ledger: CreditLedger;
  beforeAll(async () => {
    ledger = env.container.services.ledger;
  });

  const db = () => env.container.database.db;

  /** The invariant every test ends on: the cached balance equals the sum of the user's ledger. */
  async function expectBalanceMatchesLedger(userId: string) {
    const [sum] = await db()
      .select({ total: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int` })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId));
    expect(await ledger.balance(userId)).toBe(sum!.total);
  }

  it('starts a new user at zero and grants credits once per idempotency key', async () => {
    const user = await createUser(db());
    expect(await ledger.balance(user.id)).toBe(0);
    const first = await ledger.grant({
      userId: user.id,
      amount: 25,
      reason: 'welcome',
      idempotencyKey: `welcome:${user.id}`,
    });
    const again = await ledger.grant({
      userId: user.id,
      amount: 25,
      reason: 'welcome',
      idempotencyKey: `welcome:${user.id}`,
    });
    expect(first.replayed).toBe(false);
    expect(again.replayed).toBe(true);
    expect(again.entry.id).toBe(first.entry.id);
    expect(await ledger.balance(user.id)).toBe(25);
    expect(first.entry.balanceAfter).toBe(25);
    await expectBalanceMatchesLedger(user.id);
  });

  it('spends, records the running balance, and charges a reference only once', async () => {
    const user = await createUser(db());
    await ledger.grant({ userId: user.id, amount: 10, reason: 'purchase', idempotencyKey: `p:${user.id}` });
    const spent = await ledger.spend({ userId: user.id, amount: 4, reference: `job-a-${user.id}` });
    expect(spent.entry.amount).toBe(-4);
    expect(spent.entry.balanceAfter).toBe(6);
    const replay = await ledger.spend({ userId: user.id, amount: 4, reference: `job-a-${user.id}` });
    expect(replay.replayed).toBe(true);
    expect(await ledger.balance(user.id)).toBe(6);
    await expectBalanceMatchesLedger(user.id);
  });

  it('charges a reference only once even when told it is fresh (no replay lookup)', async () => {
    const user = await createUser(db());
    await ledger.grant({ userId: user.id, amount: 10, reason: 'purchase', idempotencyKey: `p:${user.id}` });
    const reference = `job-fresh-${user.id}`;
    await ledger.spend({ userId: user.id, amount: 3, reference, fresh: true });
    // Outside a transaction the lost insert is rolled back and the earlier entry reported.
    const again = await ledger.spend({ userId: user.id, amount: 3, reference, fresh: true });
    expect(again.replayed).toBe(true);
    // Inside a caller's transaction the whole transaction fails and rolls back.
    await expect(
      db().transaction((tx) => ledger.spend({ userId: user.id, amount: 3, reference, fresh: true }, tx)),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await ledger.balance(user.id)).toBe(7);
    await expectBalanceMatchesLedger(user.id);
  });

  it('refuses a spend the balance does not cover, with a readable message, and changes nothing', async () => {
    const user = await createUser(db());
    await ledger.grant({ userId: user.id, amount: 3, reason: 'purchase', idempotencyKey: `p:${user.id}` });
    const attempt = ledger.spend({ userId: user.id, amount: 5, reference: `job-b-${user.id}` });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      status: 402,
      userMessage: 'Not enough credits: this costs 5 credits and your balance is 3.',
    });
    expect(await ledger.balance(user.id)).toBe(3);
    const rows = await db().select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(rows).toHaveLength(1);
  });

  it('refuses amounts that are not whole positive numbers', async () => {
    const user = await createUser(db());
    for (const amount of [0, -1, 1.5, Number.NaN]) {
      await expect(ledger.spend({ userId: user.id, amount, reference: `x-${amount}` })).rejects.toMatchObject(
        {
          code: 'VALIDATION_FAILED',
        },
      );
    }
  });

  it('lets exactly 10 of 50 concurrent spends through against a balance that covers 10', async () => {
    const user = await createUser(db());
    await ledger.grant({ userId: user.id, amount: 10, reason: 'purchase', idempotencyKey: `p:${user.id}` });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        ledger.spend({ userId: user.id, amount: 1, reference: `c-${user.id}-${i}` }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(await ledger.balance(user.id)).toBe(0);
    const [balanceRow] = await db().select().from(creditBalances).where(eq(creditBalances.userId, user.id));
    expect(balanceRow!.balance).toBe(0);
    await expectBalanceMatchesLedger(user.id);
  });

  it('refunds a spend at most once, even when asked concurrently', async () => {
    const user = await createUser(db());
    await ledger.grant({ userId: user.id, amount: 8, reason: 'purchase', idempotencyKey: `p:${user.id}` });
    const reference = `job-r-${user.id}`;
    await ledger.spend({ userId: user.id, amount: 5, reference });
    const results = await Promise.all(Array.from({ length: 10 }, () => ledger.refund(reference)));
    expect(results.filter((r) => r && !r.replayed)).toHaveLength(1);
    expect(await ledger.balance(user.id)).toBe(8);
    const refunds = await db()
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.idempotencyKey, `refund:${reference}`));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amount).toBe(5);
    await expectBalanceMatchesLedger(user.id);
  });

  it('refunds nothing for a reference that was never charged', async () => {
    expect(await ledger.refund('never-charged')).toBeUndefined();
  });

  it('rolls a spend back with the caller transaction', async () => {
    const user = await createUser(db());
    await ledger.grant({ userId: user.id, amount: 5, reason: 'purchase', idempotencyKey: `p:${user.id}` });
    await expect(
      db().transaction(async (tx) => {
        await ledger.spend({ userId: user.id, amount: 5, reference: `job-t-${user.id}` }, tx);
        throw new Error('enqueue failed');
      }),
    ).rejects.toThrow('enqueue failed');
    expect(await ledger.balance(user.id)).toBe(5);
    await expectBalanceMatchesLedger(user.id);
  });
});
