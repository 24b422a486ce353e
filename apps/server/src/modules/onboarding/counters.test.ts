import type { contracts } from '@lumina/contracts';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv, type TestEnv } from '../../../test/harness.ts';
import { useSignedIn, waitForJob } from '../../../test/support/api.ts';
import { purchases } from '../../db/schema/index.ts';
import { uploadTrainingSet } from '../training/training.test-helpers.ts';

/** GET /api/counter, as the landing page reads it (no sign-in). */
async function counters(env: TestEnv): Promise<z.infer<typeof contracts.counter.response>> {
  const res = await env.app.inject({ method: 'GET', url: '/api/counter' });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe(`public counters on ${testDb}`, { timeout: 180_000 }, () => {
  const env = useTestEnv({ env: { WELCOME_CREDITS: '100' } });
  const alice = useSignedIn(env, 'alice');

  it('counts images made, models trained and shoots delivered, each moving on its own', async () => {
    expect(await counters(env)).toEqual({ count: 0, images: 0, models_trained: 0, shoots_delivered: 0 });

    // An image job that succeeds: images (and the legacy `count`) move, nothing else.
    const prompt = await alice.call('POST', '/api/prompt', {
      text: 'lighthouse at dusk',
      model: 'local-aurora',
    });
    expect(prompt.statusCode, prompt.body).toBe(202);
    await waitForJob(alice, prompt.json().job_id);
    expect(await counters(env)).toEqual({ count: 1, images: 1, models_trained: 0, shoots_delivered: 0 });

    // A training that succeeds: models_trained moves.
    const set = await uploadTrainingSet(env, alice, 5);
    const training = await alice.call('POST', '/api/train_model', { set_id: set.id, name: 'Counted' });
    expect(training.statusCode, training.body).toBe(202);
    await waitForJob(alice, training.json().job_id);
    expect(await counters(env)).toEqual({ count: 1, images: 1, models_trained: 1, shoots_delivered: 0 });

    // A photo shoot: counted once delivered, not before.
    const db = env.container.database.db;
    const shoot = {
      userId: alice.userId,
      productId: 'headshots',
      kind: 'photo_shoot',
      product: { name: 'Headshots' },
      paidWith: 'credits',
      creditsSpent: 50,
    };
    await db.insert(purchases).values({ ...shoot, status: 'generating' });
    expect((await counters(env)).shoots_delivered).toBe(0);
    await db.insert(purchases).values({ ...shoot, status: 'ready', deliveredAt: new Date() });
    expect(await counters(env)).toEqual({ count: 1, images: 1, models_trained: 1, shoots_delivered: 1 });
  });
});
