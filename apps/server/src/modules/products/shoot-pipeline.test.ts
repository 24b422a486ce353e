import { TRIGGER_WORD } from '@lumina/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { ledgerOf, useSignedIn, type Client } from '../../../test/support/api.ts';
import { purchases } from '../../db/schema/index.ts';
import { findModel } from '../training/training.repository.ts';
import { uploadTrainingSet } from '../training/training.test-helpers.ts';
import {
  buyShoot,
  purchaseCharges,
  purchaseJobs,
  purchaseRow,
  readyEmails,
  refundsDouble,
  SMALL_SHOOT,
  SMALL_SHOOT_JSON,
  waitForPurchase,
} from './shoot-pipeline.test-helpers.ts';

const imagesOfJob = async (client: Client, jobId: string) => {
  const res = await client.call('GET', `/api/images?job_id=${jobId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as { id: string; prompt: string | null }[];
};

describe(`delivering a photo shoot on the local engine, on ${testDb}`, { timeout: 240_000 }, () => {
  let refunds: ReturnType<typeof refundsDouble>;
  const env = useTestEnv(() => ({
    env: { WELCOME_CREDITS: '500', PRODUCTS_JSON: SMALL_SHOOT_JSON },
    inject: { purchaseRefunds: (refunds = refundsDouble(env)) },
  }));
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');

  it('trains on the photos, generates every prompt with the trained model, delivers once and emails once', async () => {
    const set = await uploadTrainingSet(env, alice, 5);
    const bought = await buyShoot(env, alice, { setId: set.id });
    const started = await purchaseRow(env, bought.id);
    expect(started.status).toBe('training');
    expect(started.trainedModelId).not.toBeNull();
    const [training] = await purchaseJobs(env, bought.id);
    expect(training).toMatchObject({ kind: 'train', cost: 0, purchaseId: bought.id, userId: alice.userId });
    const model = await findModel(env.container.database.db, started.trainedModelId!);
    expect(model).toMatchObject({ jobId: training!.id, subject: 'person', cost: 0, setId: set.id });
    expect(model!.name).toMatch(/^Tiny shoot — \d{4}-\d{2}-\d{2}$/);
    expect(model!.triggerWord).toMatch(TRIGGER_WORD);

    const ready = await waitForPurchase(env, bought.id, 'ready');
    expect(ready.imagesTotal).toBe(4);
    expect(ready.deliveredAt).not.toBeNull();
    const all = await purchaseJobs(env, bought.id);
    expect(all.map((j) => [j.kind, j.status, j.cost])).toEqual([
      ['train', 'succeeded', 0],
      ['generate', 'succeeded', 0],
      ['generate', 'succeeded', 0],
    ]);
    const generations = all.slice(1);
    // Each prompt with the trained model's trigger word, its aspect ratio, on the trained model.
    const recipes = generations.map((j) => j.input as { prompt: string; aspectRatio: string });
    expect(recipes.map((r) => r.aspectRatio).sort()).toEqual(['1:1', '3:4']);
    for (const r of recipes) {
      expect(r.prompt).toContain(model!.triggerWord);
      expect(r.prompt).not.toContain('{trigger}');
    }
    expect(generations.every((j) => j.modelId === model!.id && j.numImages === 2)).toBe(true);
    // The images are in the owner's gallery, with the purchase's jobs; nobody else's.
    let delivered = 0;
    for (const job of generations) {
      const items = await imagesOfJob(alice, job.id);
      expect(items).toHaveLength(2);
      delivered += items.length;
      expect(await imagesOfJob(bob, job.id)).toHaveLength(0);
    }
    expect(delivered).toBe(4);

    // Paid once, nothing charged for the stage jobs, nothing refunded.
    expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30]);
    const jobEntries = (await ledgerOf(env, alice.userId)).filter((e) => e.reference?.startsWith('job:'));
    expect(jobEntries).toEqual([]);
    expect(refunds.calls).toEqual([]);

    // The email, once, linking to My products; advancing again sends nothing and starts nothing.
    const emails = readyEmails(env, alice.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.text).toContain(`${env.config.auth.webUrl}/my-products`);
    expect(emails[0]!.text).toContain('4 images');
    expect((await purchaseRow(env, bought.id)).notifiedAt).not.toBeNull();
    await env.container.services.products.pipeline.advance(bought.id);
    await env.container.services.products.pipeline.advance(bought.id);
    expect(readyEmails(env, alice.email)).toHaveLength(1);
    expect(await purchaseJobs(env, bought.id)).toHaveLength(3);
    // The public counter counts a delivered shoot.
    const counter = (await env.app.inject({ method: 'GET', url: '/api/counter' })).json();
    expect(counter.shoots_delivered).toBeGreaterThanOrEqual(1);
  });

  it('starts one training however often start is called', async () => {
    const set = await uploadTrainingSet(env, alice, 5);
    const bought = await buyShoot(env, alice, { setId: set.id });
    const { db } = env.container.database;
    const { pipeline } = env.container.services.products;
    // Again with the stale row (as bought), and twice at once.
    await db.transaction((tx) => pipeline.start(tx, bought));
    await Promise.all([
      db.transaction((tx) => pipeline.start(tx, bought)),
      db.transaction((tx) => pipeline.start(tx, bought)),
    ]);
    const trainings = (await purchaseJobs(env, bought.id)).filter((j) => j.kind === 'train');
    expect(trainings).toHaveLength(1);
    await waitForPurchase(env, bought.id, 'ready');
    expect((await purchaseJobs(env, bought.id)).filter((j) => j.kind === 'train')).toHaveLength(1);
    expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30]);
  });

  it('waits for photos without a usable set of the buyer, then trains once they are there', async () => {
    const { db } = env.container.database;
    const { pipeline } = env.container.services.products;
    const none = await buyShoot(env, alice, { setId: null });
    expect((await purchaseRow(env, none.id)).status).toBe('waiting_for_photos');

    const small = await uploadTrainingSet(env, alice, 4);
    const tooFew = await buyShoot(env, alice, { setId: small.id });
    expect((await purchaseRow(env, tooFew.id)).status).toBe('waiting_for_photos');

    // Someone else's set does not train: it reads as no set at all.
    const bobs = await uploadTrainingSet(env, bob, 5);
    const foreign = await buyShoot(env, alice, { setId: bobs.id });
    expect((await purchaseRow(env, foreign.id)).status).toBe('waiting_for_photos');
    expect(await purchaseJobs(env, foreign.id)).toEqual([]);

    // The photos arrive: the buying side records the set and calls start again.
    const enough = await uploadTrainingSet(env, alice, 5);
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(purchases)
        .set({ setId: enough.id })
        .where(eq(purchases.id, none.id))
        .returning();
      await pipeline.start(tx, row!);
    });
    expect((await purchaseRow(env, none.id)).status).toBe('training');
    await waitForPurchase(env, none.id, 'ready');
    expect(refunds.calls).toEqual([]);
  });

  it('splits a prompt into jobs of at most the model’s images per job', async () => {
    const set = await uploadTrainingSet(env, alice, 5);
    const product = {
      ...SMALL_SHOOT,
      shoot: {
        ...SMALL_SHOOT.shoot,
        prompts: [{ prompt: 'headshot of {trigger}', count: 5, aspectRatio: '1:1' }],
      },
    };
    const bought = await buyShoot(env, alice, { setId: set.id, product });
    const ready = await waitForPurchase(env, bought.id, 'ready');
    expect(ready.imagesTotal).toBe(5);
    // The local engine makes at most 4 images per job.
    const generations = (await purchaseJobs(env, bought.id)).filter((j) => j.kind === 'generate');
    // Queued in one transaction, the jobs share created_at: their order is not defined.
    expect(generations.map((j) => j.numImages).sort((a, b) => b - a)).toEqual([4, 1]);
    let delivered = 0;
    for (const job of generations) delivered += (await imagesOfJob(alice, job.id)).length;
    expect(delivered).toBe(5);
  });
});
