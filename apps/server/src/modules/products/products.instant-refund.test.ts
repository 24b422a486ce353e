import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { balanceOf, signedInClient } from '../../../test/support/api.ts';
import type { ShootPipeline } from './purchase-pipeline.ts';
import { createPhotoSet } from './products.test-helpers.ts';

describe(`a shoot bought with credits that cannot start is refunded in the same answer, on ${testDb}`, () => {
  // The delivering side refusing at once (as it does for a trainer it cannot run), through the real refunds.
  const refusing: ShootPipeline = {
    async start(tx, purchase) {
      if (purchase.setId) {
        await env.container.services.products.refunds.fail(tx, purchase.id, 'Training could not start');
      }
    },
  };
  const env = useTestEnv({
    workers: false,
    env: { WELCOME_CREDITS: '1000', WEB_URL: 'http://web.test' },
    inject: { shootPipeline: refusing },
  });

  it('answers the balance after the refund, not right after the charge', async () => {
    const client = await signedInClient(env, 'instant');
    const setId = await createPhotoSet(env, client.userId, 5);
    const res = await client.call('POST', '/api/products/headshots/buy', {
      pay_with: 'credits',
      set_id: setId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { purchase, balance } = res.json();
    expect(purchase).toMatchObject({ status: 'refunded', credits_spent: 600 });
    expect(purchase.error).toBe('Training could not start. Your 600 credits were refunded.');
    expect(balance).toBe(1000);
    expect(await balanceOf(client)).toBe(1000);
  });
});
