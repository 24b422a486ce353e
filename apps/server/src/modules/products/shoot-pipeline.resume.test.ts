import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv, type TestEnv } from '../../../test/harness.ts';
import { useSignedIn } from '../../../test/support/api.ts';
import { createJobHandlers } from '../../queue/handlers.ts';
import { startWorkers } from '../../queue/workers.ts';
import { uploadTrainingSet } from '../training/training.test-helpers.ts';
import {
  buyShoot,
  purchaseCharges,
  purchaseJobs,
  purchaseRow,
  readyEmails,
  refundsDouble,
  SMALL_SHOOT_JSON,
  waitForPurchase,
} from './shoot-pipeline.test-helpers.ts';

/** The queue's `purchase.advance` entries for a purchase, with their state. */
async function advanceMessages(env: TestEnv, purchaseId: string) {
  const { rows } = await env.container.database.executor.executeSql(
    `SELECT state FROM pgboss.job WHERE name = 'purchase.advance' AND data->>'purchaseId' = $1`,
    [purchaseId],
  );
  return (rows as { state: string }[]).map((r) => r.state);
}

describe(`a photo shoot resumes after a crash between its stages, on ${testDb}`, { timeout: 240_000 }, () => {
  let refunds: ReturnType<typeof refundsDouble>;
  // No workers at first: a stage job ends while nothing handles the purchase's next step.
  const env = useTestEnv(() => ({
    workers: false,
    env: { WELCOME_CREDITS: '500', PRODUCTS_JSON: SMALL_SHOOT_JSON },
    inject: { purchaseRefunds: (refunds = refundsDouble(env)) },
  }));
  const alice = useSignedIn(env, 'alice');

  it('the next step survives in the queue; a fresh worker finishes it; a repeated advance starts nothing twice', async () => {
    const { jobs, products } = env.container.services;
    const set = await uploadTrainingSet(env, alice, 5);
    const bought = await buyShoot(env, alice, { setId: set.id });
    const [training] = await purchaseJobs(env, bought.id);
    expect(training).toMatchObject({ kind: 'train', status: 'queued' });

    // The training runs to its end in a worker that then dies before any advance handler runs.
    const ctx = { id: 'manual', retryCount: 0, isLastAttempt: false, log: env.container.log };
    await jobs.worker.run(training!.id, ctx);
    expect((await purchaseJobs(env, bought.id)).map((j) => j.status)).toEqual(['succeeded']);
    expect((await purchaseRow(env, bought.id)).status).toBe('training');
    // The purchase's next step was queued in the commit that ended the job.
    expect(await advanceMessages(env, bought.id)).toEqual(['created']);

    // A redelivered advance running twice at once (and once more after) starts the generations once.
    await Promise.all([products.pipeline.advance(bought.id), products.pipeline.advance(bought.id)]);
    await products.pipeline.advance(bought.id);
    const afterAdvance = await purchaseJobs(env, bought.id);
    expect(afterAdvance.map((j) => j.kind)).toEqual(['train', 'generate', 'generate']);
    expect((await purchaseRow(env, bought.id)).status).toBe('generating');

    // The generations end too, still with nobody to advance the purchase: it waits, its steps queued.
    for (const job of afterAdvance.slice(1)) await jobs.worker.run(job.id, ctx);
    expect((await purchaseRow(env, bought.id)).status).toBe('generating');
    expect((await advanceMessages(env, bought.id)).filter((s) => s === 'created')).toHaveLength(3);
    const version = await jobs.service.version(alice.userId);
    let told = 0;
    const stop = jobs.bus.subscribe(alice.userId, () => told++);

    // A fresh worker: the queued advances deliver the shoot once, and the progress stream hears it
    // (its fingerprint moves with the purchase though no job changed).
    await startWorkers(env.container.queue, createJobHandlers(env.container), {
      concurrency: 1,
      log: env.container.log,
    });
    const ready = await waitForPurchase(env, bought.id, 'ready');
    expect(ready.imagesTotal).toBe(4);
    const all = await purchaseJobs(env, bought.id);
    expect(all.map((j) => [j.kind, j.status])).toEqual([
      ['train', 'succeeded'],
      ['generate', 'succeeded'],
      ['generate', 'succeeded'],
    ]);
    expect(await jobs.service.version(alice.userId)).not.toBe(version);
    expect(told).toBeGreaterThan(0);
    stop();
    await products.pipeline.advance(bought.id);
    expect(readyEmails(env, alice.email)).toHaveLength(1);
    expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30]);
    expect(refunds.calls).toEqual([]);
  });
});
