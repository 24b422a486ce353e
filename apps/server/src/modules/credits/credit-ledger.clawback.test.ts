import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { createUser } from '../../../test/factories.ts';

describe(`ledger clawback on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });

  it('may take the balance below zero, once per idempotency key, while spend never does', async () => {
    const ledger = env.container.services.ledger;
    const user = await createUser(env.container.database.db);
    await ledger.grant({ userId: user.id, amount: 10, reason: 'purchase', idempotencyKey: `p:${user.id}` });
    await ledger.spend({ userId: user.id, amount: 8, reference: `j:${user.id}` });
    const first = await ledger.clawback({ userId: user.id, amount: 10, idempotencyKey: `cb:${user.id}` });
    const again = await ledger.clawback({ userId: user.id, amount: 10, idempotencyKey: `cb:${user.id}` });
    expect(first.replayed).toBe(false);
    expect(first.entry).toMatchObject({ amount: -10, balanceAfter: -8, reason: 'clawback' });
    expect(again.replayed).toBe(true);
    expect(await ledger.balance(user.id)).toBe(-8);
    await expect(
      ledger.spend({ userId: user.id, amount: 1, reference: `j2:${user.id}` }),
    ).rejects.toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
    });
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () =>
        ledger.clawback({ userId: user.id, amount: 5, idempotencyKey: `cb2:${user.id}` }),
      ),
    );
    expect(concurrent.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await ledger.balance(user.id)).toBe(-13);
    await expect(
      ledger.clawback({ userId: user.id, amount: 0, idempotencyKey: 'zero' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});
