import { describe, expect, it } from 'vitest';
import { LocalTrainer } from '../../adapters/providers/local/training/local-trainer.ts';
import { LocalTextToImage } from '../../adapters/providers/local/local.text-to-image.ts';
import { ProviderError, type TextToImageProvider } from '../../adapters/providers/text-to-image.ts';
import type { TrainerProvider } from '../../adapters/providers/trainer.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { eventually, useSignedIn } from '../../../test/support/api.ts';
import { createJobHandlers } from '../../queue/handlers.ts';
import { queueJobTypes } from '../../queue/registry.ts';
import { trainedStyles } from '../training/personal-models.ts';
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

/** How the local trainer and engine behave in this file's tests. */
const mode = { trainer: 'ok' as 'ok' | 'fail' | 'hold', generation: 'ok' as 'ok' | 'fail' };

describe(
  `a photo shoot whose stage fails is failed and refunded once, on ${testDb}`,
  { timeout: 240_000 },
  () => {
    let refunds: ReturnType<typeof refundsDouble>;
    const real = new LocalTrainer();
    // The local trainer, refusing or holding on when told to (holding until the job is cancelled).
    const trainer: TrainerProvider = {
      name: 'local',
      available: true,
      async train(request, ctx) {
        if (mode.trainer === 'fail') {
          throw new ProviderError('refused', 'rejected', 'The trainer refused these photos.');
        }
        if (mode.trainer === 'hold') {
          await ctx.onSubmitted('held-request');
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
          throw new ProviderError('aborted', 'cancelled', 'Cancelled.');
        }
        return real.train(request, ctx);
      },
      // The local trainer never confirms a cancel before it started (so the job refunds nothing itself).
      cancel: async () => false,
    };
    let engine: LocalTextToImage | undefined;
    // The local engine with trained styles (as the container wires it), failing when told to.
    const textToImage: TextToImageProvider = {
      name: 'local',
      available: true,
      run(request, ctx) {
        if (mode.generation === 'fail') {
          return Promise.reject(
            new ProviderError('refused', 'rejected', 'The image service refused this prompt.'),
          );
        }
        engine ??= new LocalTextToImage({
          styles: trainedStyles({ db: env.container.database.db, storage: env.container.storage }),
        });
        return engine.run(request, ctx);
      },
      cancel: async () => false,
    };
    const env = useTestEnv(() => ({
      env: { WELCOME_CREDITS: '500', PRODUCTS_JSON: SMALL_SHOOT_JSON, GENERATION_RETRY_LIMIT: '0' },
      inject: {
        purchaseRefunds: (refunds = refundsDouble(env)),
        adapters: { local: { trainer, textToImage } },
      },
    }));
    const alice = useSignedIn(env, 'alice');
    const bob = useSignedIn(env, 'bob');

    it('a training the trainer refuses: failed, refunded once, no generation, no email', async () => {
      mode.trainer = 'fail';
      const set = await uploadTrainingSet(env, alice, 5);
      const bought = await buyShoot(env, alice, { setId: set.id });
      const failed = await waitForPurchase(env, bought.id, 'refunded');
      expect(failed.error).toBe('Training failed: The trainer refused these photos.');
      expect(failed.error).not.toContain('credits were refunded');
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
      const jobs = await purchaseJobs(env, bought.id);
      expect(jobs.map((j) => [j.kind, j.status, j.refundedAt])).toEqual([['train', 'failed', null]]);
      // The stage job cost nothing, so its own message does not claim a refund either.
      expect(jobs[0]!.error).toBe('The trainer refused these photos.');
      // Another advance changes nothing: one refund.
      await env.container.services.products.pipeline.advance(bought.id);
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
      expect(refunds.calls.filter((r) => r.startsWith('Training failed'))).toHaveLength(1);
      expect(readyEmails(env, alice.email)).toHaveLength(0);
    });

    it('a generation that fails: failed, refunded once, the other generations stopped', async () => {
      mode.trainer = 'ok';
      mode.generation = 'fail';
      const set = await uploadTrainingSet(env, alice, 5);
      const before = refunds.calls.length;
      const bought = await buyShoot(env, alice, { setId: set.id });
      const failed = await waitForPurchase(env, bought.id, 'refunded');
      expect(failed.error).toBe('Generation failed: The image service refused this prompt.');
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
      // Both generations end (one failed, the other failed or stopped); each was told once at most.
      const jobs = await eventually(async () => {
        const all = await purchaseJobs(env, bought.id);
        return all.every((j) => !['queued', 'running'].includes(j.status)) ? all : undefined;
      });
      expect(jobs[0]).toMatchObject({ kind: 'train', status: 'succeeded' });
      expect(jobs.slice(1).map((j) => j.kind)).toEqual(['generate', 'generate']);
      expect(jobs.some((j) => j.status === 'failed')).toBe(true);
      await env.container.services.products.pipeline.advance(bought.id);
      expect(refunds.calls.length - before).toBeGreaterThanOrEqual(1);
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
      expect((await purchaseRow(env, bought.id)).deliveredAt).toBeNull();
      expect(readyEmails(env, alice.email)).toHaveLength(0);
      mode.generation = 'ok';
    });

    it("a shoot's stage job cannot be cancelled on its own (no refund while keeping the model)", async () => {
      mode.trainer = 'hold';
      const set = await uploadTrainingSet(env, alice, 5);
      const bought = await buyShoot(env, alice, { setId: set.id });
      const training = await eventually(async () => {
        const [job] = await purchaseJobs(env, bought.id);
        return job?.status === 'running' ? job : undefined;
      });
      const progress = (await alice.call('GET', '/api/progress')).json() as {
        jobs: Array<{ id: string; purchase_id: string | null }>;
      };
      expect(progress.jobs.find((j) => j.id === training.id)?.purchase_id).toBe(bought.id);
      const refused = await alice.call('DELETE', `/api/jobs/${training.id}`);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().detail).toBe(
        'This job is part of your photo shoot "Tiny shoot"; it cannot be cancelled on its own.',
      );
      // Someone else's: as good as missing.
      expect((await bob.call('DELETE', `/api/jobs/${training.id}`)).statusCode).toBe(404);
      const [still] = await purchaseJobs(env, bought.id);
      expect(still!.status).toBe('running');
      expect((await purchaseRow(env, bought.id)).status).toBe('training');
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30]);
      // Deleting the model it trains still stops it (nothing is kept), and then the shoot is refunded.
      const modelId = (await purchaseRow(env, bought.id)).trainedModelId!;
      expect((await alice.call('DELETE', `/api/my_models/${modelId}`)).statusCode).toBe(200);
      await waitForPurchase(env, bought.id, 'refunded');
      mode.trainer = 'ok';
    });

    it('a stage job given up by the queue (dead letter) claims no refund of its own; the shoot is refunded', async () => {
      mode.trainer = 'hold';
      const set = await uploadTrainingSet(env, alice, 5);
      const bought = await buyShoot(env, alice, { setId: set.id });
      const training = await eventually(async () => {
        const [job] = await purchaseJobs(env, bought.id);
        return job?.status === 'running' ? job : undefined;
      });
      expect(await env.container.services.jobs.worker.abandon(training.id)).toEqual({ ended: true });
      const [job] = await purchaseJobs(env, bought.id);
      expect(job).toMatchObject({
        status: 'failed',
        error: 'The provider did not finish this job after several tries.',
        refundedAt: null,
      });
      const failed = await waitForPurchase(env, bought.id, 'refunded');
      expect(failed.error).toBe('Training failed: The provider did not finish this job after several tries.');
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
      mode.trainer = 'ok';
    });

    it('purchase.advance given up for good (its dead letter) fails and refunds the shoot once', async () => {
      const advance = queueJobTypes['purchase.advance'].options;
      expect(advance.deadLetter).toBe('purchase.abandoned');
      const handlers = createJobHandlers(env.container);
      mode.trainer = 'hold';
      const set = await uploadTrainingSet(env, alice, 5);
      const bought = await buyShoot(env, alice, { setId: set.id });
      await eventually(async () => {
        const [job] = await purchaseJobs(env, bought.id);
        return job?.status === 'running' ? job : undefined;
      });
      const before = refunds.calls.length;
      const ctx = { id: 'dead', retryCount: 0, isLastAttempt: false, log: env.container.log };
      await handlers['purchase.abandoned']({ purchaseId: bought.id }, ctx);
      const failed = await purchaseRow(env, bought.id);
      expect(failed).toMatchObject({ status: 'refunded', error: 'We could not finish your photo shoot.' });
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
      // Its training is stopped; a second dead letter changes nothing.
      const [job] = await purchaseJobs(env, bought.id);
      expect(job!.status).toBe('cancelled');
      expect(await handlers['purchase.abandoned']({ purchaseId: bought.id }, ctx)).toEqual({
        skipped: 'refunded',
      });
      expect(refunds.calls.length - before).toBe(1);
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
      mode.trainer = 'ok';
    });

    it('deleting the model while it trains cancels the training, fails the purchase and refunds it', async () => {
      mode.trainer = 'hold';
      const set = await uploadTrainingSet(env, alice, 5);
      const bought = await buyShoot(env, alice, { setId: set.id });
      const modelId = (await purchaseRow(env, bought.id)).trainedModelId!;
      const [training] = await purchaseJobs(env, bought.id);
      await eventually(async () => {
        const [job] = await purchaseJobs(env, bought.id);
        return job?.status === 'running' ? job : undefined;
      });
      const res = await alice.call('DELETE', `/api/my_models/${modelId}`);
      expect(res.statusCode, res.body).toBe(200);
      const failed = await waitForPurchase(env, bought.id, 'refunded');
      expect(failed.error).toBe('Training failed: it was cancelled.');
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
      expect((await purchaseJobs(env, bought.id)).map((j) => [j.id, j.status])).toEqual([
        [training!.id, 'cancelled'],
      ]);
      mode.trainer = 'ok';
    });

    it('a product whose prompts the trained model cannot make fails before generating, and refunds', async () => {
      mode.trainer = 'ok';
      const set = await uploadTrainingSet(env, alice, 5);
      const odd = {
        ...SMALL_SHOOT,
        shoot: {
          ...SMALL_SHOOT.shoot,
          prompts: [{ prompt: '{trigger} on a beach', count: 1, aspectRatio: '7:3' }],
        },
      };
      const bought = await buyShoot(env, alice, { setId: set.id, product: odd });
      const failed = await waitForPurchase(env, bought.id, 'refunded');
      expect(failed.error).toMatch(/^Generation could not start: .*7:3/);
      expect((await purchaseJobs(env, bought.id)).map((j) => j.kind)).toEqual(['train']);
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
    });

    it('a product naming a trainer this server cannot run is refunded at once', async () => {
      const set = await uploadTrainingSet(env, alice, 5);
      const product = { ...SMALL_SHOOT, shoot: { ...SMALL_SHOOT.shoot, trainer: 'no-such-trainer' } };
      const bought = await buyShoot(env, alice, { setId: set.id, product });
      const row = await purchaseRow(env, bought.id);
      expect(row.status).toBe('refunded');
      expect(row.error).toMatch(/^Training could not start: Unknown trainer "no-such-trainer"/);
      expect(await purchaseJobs(env, bought.id)).toEqual([]);
      expect(await purchaseCharges(env, alice, bought.id)).toEqual([-30, 30]);
    });
  },
);
