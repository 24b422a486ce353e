import type { PurchaseView, TrainingUploadResult } from '@lumina/contracts';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LocalTrainer } from '../../adapters/providers/local/training/local-trainer.ts';
import { LocalTextToImage } from '../../adapters/providers/local/local.text-to-image.ts';
import { ProviderError, type TextToImageProvider } from '../../adapters/providers/text-to-image.ts';
import type { TrainerProvider } from '../../adapters/providers/trainer.ts';
import { testDb, useTestEnv, type TestEnv } from '../../../test/harness.ts';
import {
  balanceOf,
  eventually,
  ledgerOf,
  signedInClient,
  useSignedIn,
  type Client,
} from '../../../test/support/api.ts';
import { jobs, payments } from '../../db/schema/index.ts';
import { createJobHandlers } from '../../queue/handlers.ts';
import { startWorkers } from '../../queue/workers.ts';
import { trainedStyles } from '../training/personal-models.ts';
import { filesForm, seededPhoto } from '../training-sets/training-sets.test-helpers.ts';

/**
 * Buying and delivering a photo shoot together, as merged: the real container (its own ShootPipeline
 * and PurchaseRefunds), the local engine and trainer, the development checkout, all through HTTP.
 * Only the local trainer and engine are wrapped, so the failure tests can make them refuse.
 */

const SHOOT = {
  id: 'journey-shoot',
  kind: 'photo_shoot',
  name: 'Journey shoot',
  description: 'Two prompts, two images each.',
  price: { cents: 900, currency: 'usd' },
  priceCredits: 30,
  shoot: {
    subject: 'person',
    prompts: [
      { prompt: 'studio portrait of {trigger}, grey backdrop', count: 2, aspectRatio: '3:4' },
      { prompt: 'outdoor photo of {trigger} at golden hour', count: 2, aspectRatio: '1:1' },
    ],
  },
};
const PACK = {
  id: 'journey-pack',
  kind: 'credits',
  name: 'Journey pack',
  price: { cents: 500, currency: 'usd' },
  credits: 100,
};

/** Whether the trainer or the image engine refuses (the failure tests), or works as the local one does. */
const mode = { refuseTraining: false, refuseGeneration: false };

let nextSeed = 70_000;

/** The steps of a purchase as the web app takes them, on one test env. */
function journey(env: TestEnv) {
  /** Six photos through the onboarding upload, as the onboarding page sends them. */
  async function uploadPhotos(client: Client, count = 6): Promise<TrainingUploadResult> {
    const parts = await Promise.all(
      Array.from({ length: count }, async () => {
        const seed = nextSeed++;
        return { filename: `me-${seed}.jpg`, data: await seededPhoto(seed, 576, 512) };
      }),
    );
    const form = filesForm(parts);
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/onboarding/upload_images',
      headers: { ...form.headers, authorization: `Bearer ${client.accessToken}` },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const set = res.json() as TrainingUploadResult;
    expect(set.photos).toHaveLength(count);
    return set;
  }

  /** Buys with money through the development checkout and confirms it as the success page does. */
  async function buyWithMoney(client: Client, setId?: string): Promise<PurchaseView> {
    const bought = await client.call('POST', `/api/products/${SHOOT.id}/buy`, {
      pay_with: 'money',
      ...(setId ? { set_id: setId } : {}),
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const { checkout, purchase } = bought.json();
    expect(purchase).toBeNull();
    // The checkout's completion and the success page race, as a webhook and a browser do.
    const [done] = await Promise.all([
      client.call('POST', `/api/dev/checkout/${checkout.session_id}/complete`),
      client.call('POST', '/api/process_payment', { session_id: checkout.session_id }),
    ]);
    expect(done.statusCode, done.body).toBe(200);
    const processed = await client.call('POST', '/api/process_payment', { session_id: checkout.session_id });
    expect(processed.statusCode, processed.body).toBe(200);
    expect(processed.json()).toMatchObject({ status: 'paid', credits_added: 0 });
    const mine = (await client.call('GET', '/api/myproducts')).json() as PurchaseView[];
    const found = mine.find(
      (p) => p.payment_id !== null && p.product_id === SHOOT.id && p.set_id === (setId ?? null),
    );
    expect(found).toBeDefined();
    return found!;
  }

  async function buyWithCredits(client: Client, setId?: string) {
    const res = await client.call('POST', `/api/products/${SHOOT.id}/buy`, {
      pay_with: 'credits',
      ...(setId ? { set_id: setId } : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { purchase: PurchaseView; balance: number };
  }

  /** Polls the purchase as My products does until it is `status`; fails at once on another end. */
  const waitFor = (client: Client, id: string, status: PurchaseView['status']) =>
    eventually(
      async () => {
        const res = await client.call('GET', `/api/myproducts/${id}`);
        expect(res.statusCode, res.body).toBe(200);
        const view = res.json() as PurchaseView;
        const ended = ['ready', 'failed', 'refunded'];
        if (ended.includes(view.status) && view.status !== status) {
          throw new Error(`purchase ended ${view.status}: ${view.error}`);
        }
        return view.status === status ? view : undefined;
      },
      180_000,
      `purchase ${id} to be ${status}`,
    );

  const readyEmails = (to: string) =>
    (env.container.services.auth.mailbox?.list({ to }) ?? []).filter((m) =>
      m.subject.startsWith('Your photo shoot is ready'),
    );
  const purchaseLedger = async (client: Client, id: string) =>
    (await ledgerOf(env, client.userId)).filter((e) => e.reference === `purchase:${id}`).map((e) => e.amount);
  const shootsDelivered = async () =>
    (await env.app.inject({ method: 'GET', url: '/api/counter' })).json().shoots_delivered as number;
  /** A URL as the API gives it, fetched from this app (signed file URLs are served by it). */
  const load = (client: Client, url: string) => {
    const { pathname, search } = new URL(url, 'http://local.test');
    return client.call('GET', pathname + search);
  };

  return {
    uploadPhotos,
    buyWithMoney,
    buyWithCredits,
    waitFor,
    readyEmails,
    purchaseLedger,
    shootsDelivered,
    load,
  };
}

describe(`a photo shoot from buying to delivery, real wiring, on ${testDb}`, { timeout: 300_000 }, () => {
  const real = new LocalTrainer();
  const trainer: TrainerProvider = {
    name: 'local',
    available: true,
    train(request, ctx) {
      if (mode.refuseTraining) {
        return Promise.reject(new ProviderError('refused', 'rejected', 'The trainer refused these photos.'));
      }
      return real.train(request, ctx);
    },
    cancel: () => real.cancel(),
  };
  let engine: LocalTextToImage | undefined;
  // The local engine with trained styles, as the container wires it.
  const textToImage: TextToImageProvider = {
    name: 'local',
    available: true,
    run(request, ctx) {
      if (mode.refuseGeneration) {
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
  const env = useTestEnv({
    env: {
      WELCOME_CREDITS: '300',
      PRODUCTS_JSON: JSON.stringify([SHOOT, PACK]),
      WEB_URL: 'http://web.test',
      GENERATION_RETRY_LIMIT: '0',
    },
    inject: { adapters: { local: { trainer, textToImage } } },
  });
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');

  const {
    uploadPhotos,
    buyWithMoney,
    buyWithCredits,
    waitFor,
    readyEmails,
    purchaseLedger,
    shootsDelivered,
    load,
  } = journey(env);

  it('money: upload, dev checkout, success page, delivered — images, gallery, one email, counter, zip, review', async () => {
    const delivered = await shootsDelivered();
    const set = await uploadPhotos(alice);
    const bought = await buyWithMoney(alice, set.id);
    expect(bought).toMatchObject({ paid_with: 'money', amount_cents: 900, currency: 'usd', set_id: set.id });
    expect(['training', 'generating', 'ready']).toContain(bought.status);

    const ready = await waitFor(alice, bought.id, 'ready');
    expect(ready.progress).toMatchObject({ stage: 'done', images_done: 4, images_total: 4 });
    expect(ready.error).toBeNull();
    expect(ready.images).toHaveLength(4);
    for (const image of ready.images) {
      for (const url of [image.url, image.thumbnail_url]) {
        const file = await load(alice, url);
        expect(file.statusCode, url).toBe(200);
        expect(file.headers['content-type']).toMatch(/^image\//);
        expect(file.rawPayload.length).toBeGreaterThan(100);
      }
    }
    // In the gallery, as the owner's images.
    const gallery = (await alice.call('GET', '/api/images?limit=100')).json().items as { id: string }[];
    const galleryIds = new Set(gallery.map((i) => i.id));
    expect(ready.images.every((i) => galleryIds.has(i.id))).toBe(true);

    // The ready email once, even after the pipeline is told to advance again.
    await env.container.services.products.pipeline.advance(bought.id);
    expect(readyEmails(alice.email)).toHaveLength(1);
    expect(readyEmails(alice.email)[0]!.text).toContain('http://web.test/my-products');
    expect(await shootsDelivered()).toBe(delivered + 1);

    // One training and one generation per prompt, however often payment was confirmed.
    const stages = await env.container.database.db.select().from(jobs).where(eq(jobs.purchaseId, bought.id));
    expect(stages.map((j) => `${j.kind}:${j.status}`).sort()).toEqual([
      'generate:succeeded',
      'generate:succeeded',
      'train:succeeded',
    ]);

    const zip = await alice.call('GET', `/api/myproducts/${bought.id}/download`);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    expect(Object.keys(files)).toHaveLength(4);
    for (const data of Object.values(files)) expect(data.length).toBeGreaterThan(100);

    // The payment is reviewable, by the product's name.
    const pending = (await alice.call('GET', '/api/reviews')).json().pending as Array<Record<string, string>>;
    expect(pending.find((p) => p.payment_id === bought.payment_id)).toMatchObject({
      product_id: SHOOT.id,
      product_name: SHOOT.name,
    });
  });

  it('credits without a set: waits for photos, trains once a set is attached, charged once', async () => {
    const before = await balanceOf(alice);
    const { purchase, balance } = await buyWithCredits(alice);
    expect(purchase).toMatchObject({ status: 'waiting_for_photos', paid_with: 'credits', credits_spent: 30 });
    expect(balance).toBe(before - 30);

    const set = await uploadPhotos(alice);
    // Two tabs attach at once: one wins, the other is told it has its photos; one training.
    const attaches = await Promise.all(
      [0, 1].map(() => alice.call('POST', `/api/myproducts/${purchase.id}/photos`, { set_id: set.id })),
    );
    expect(attaches.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const attached = attaches.find((r) => r.statusCode === 200)!;
    expect(attached.json()).toMatchObject({ status: 'training', set_id: set.id });
    const again = await alice.call('POST', `/api/myproducts/${purchase.id}/photos`, { set_id: set.id });
    expect(again.statusCode).toBe(409);

    const ready = await waitFor(alice, purchase.id, 'ready');
    expect(ready.images).toHaveLength(4);
    const trainings = await env.container.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.purchaseId, purchase.id));
    expect(trainings.filter((j) => j.kind === 'train')).toHaveLength(1);
    expect(await purchaseLedger(alice, purchase.id)).toEqual([-30]);
    expect(await balanceOf(alice)).toBe(before - 30);
    // No job of a shoot charged anything on its own (Alice runs no other jobs here).
    const jobEntries = (await ledgerOf(env, alice.userId)).filter((e) => e.reference?.startsWith('job:'));
    expect(jobEntries).toEqual([]);
  });

  it('a training the trainer refuses: credits back once, a paid checkout refunded, the error says why', async () => {
    mode.refuseTraining = true;
    try {
      const before = await balanceOf(alice);
      const emails = readyEmails(alice.email).length;
      const delivered = await shootsDelivered();
      const set = await uploadPhotos(alice);
      const { purchase } = await buyWithCredits(alice, set.id);
      const refunded = await waitFor(alice, purchase.id, 'refunded');
      expect(refunded.error).toBe(
        'Training failed: The trainer refused these photos. Your 30 credits were refunded.',
      );
      expect(refunded.images).toEqual([]);
      expect(await purchaseLedger(alice, purchase.id)).toEqual([-30, 30]);
      expect(await balanceOf(alice)).toBe(before);

      const moneySet = await uploadPhotos(alice);
      const paid = await buyWithMoney(alice, moneySet.id);
      const moneyRefunded = await waitFor(alice, paid.id, 'refunded');
      expect(moneyRefunded.error).toBe(
        'Training failed: The trainer refused these photos. Your payment of $9.00 was refunded.',
      );
      const [payment] = await env.container.database.db
        .select()
        .from(payments)
        .where(eq(payments.id, paid.payment_id!));
      expect(payment).toMatchObject({ status: 'refunded', refundedCents: 900 });
      // Money never turns into credits; the credit refund did not happen twice.
      expect(await balanceOf(alice)).toBe(before);
      expect(await purchaseLedger(alice, purchase.id)).toEqual([-30, 30]);
      // Nothing was generated: no ready email, no delivered shoot, no review asked for a refunded payment.
      expect(readyEmails(alice.email)).toHaveLength(emails);
      expect(await shootsDelivered()).toBe(delivered);
      const pending = (await alice.call('GET', '/api/reviews')).json().pending as Array<{
        payment_id: string;
      }>;
      expect(pending.map((p) => p.payment_id)).not.toContain(paid.payment_id);
    } finally {
      mode.refuseTraining = false;
    }
  });

  it('a generation the engine refuses: the money purchase refunded once, the other generation stopped', async () => {
    mode.refuseGeneration = true;
    try {
      const before = await balanceOf(alice);
      const set = await uploadPhotos(alice);
      const paid = await buyWithMoney(alice, set.id);
      const refunded = await waitFor(alice, paid.id, 'refunded');
      expect(refunded.error).toBe(
        'Generation failed: The image service refused this prompt. Your payment of $9.00 was refunded.',
      );
      const [payment] = await env.container.database.db
        .select()
        .from(payments)
        .where(eq(payments.id, paid.payment_id!));
      expect(payment).toMatchObject({ status: 'refunded', refundedCents: 900 });
      // Both generations end; none of them charged or refunded credits of their own.
      const stages = await eventually(async () => {
        const rows = await env.container.database.db.select().from(jobs).where(eq(jobs.purchaseId, paid.id));
        return rows.every((j) => ['succeeded', 'failed', 'cancelled'].includes(j.status)) ? rows : undefined;
      });
      expect(stages.filter((j) => j.kind === 'generate')).toHaveLength(2);
      expect(stages.filter((j) => j.kind === 'generate' && j.status === 'succeeded')).toEqual([]);
      expect(await balanceOf(alice)).toBe(before);
      expect(refunded.images).toEqual([]);
    } finally {
      mode.refuseGeneration = false;
    }
  });

  it('photos removed between choosing them and paying: waits for photos, the same set offered again once fixed', async () => {
    const set = await uploadPhotos(alice, 5);
    const res = await alice.call('POST', `/api/products/${SHOOT.id}/buy`, {
      pay_with: 'money',
      set_id: set.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { session_id } = res.json().checkout;
    // In another tab the buyer removes a photo: the set is now too small to train on.
    const removed = await alice.call('DELETE', `/api/training_sets/${set.id}/photos/${set.photos[0]!.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await alice.call('POST', `/api/dev/checkout/${session_id}/complete`)).statusCode).toBe(200);
    const processed = await alice.call('POST', '/api/process_payment', { session_id });
    expect(processed.json()).toMatchObject({ status: 'paid' });
    const [paid] = await env.container.database.db
      .select()
      .from(payments)
      .where(eq(payments.stripeSessionId, session_id));
    const mine = (await alice.call('GET', '/api/myproducts')).json() as PurchaseView[];
    const purchase = mine.find((p) => p.payment_id === paid!.id)!;
    // Paid, but nothing to train on: it waits for photos (no training job that would fail and refund).
    expect(purchase).toMatchObject({
      status: 'waiting_for_photos',
      error: null,
      progress: { stage: 'photos' },
    });
    // The page offers the photos waiting to be used: this set too, once a photo is added back to it.
    const pendingSets = async () =>
      ((await alice.call('GET', '/api/onboarding/pending_image_sets')).json().sets as { id: string }[]).map(
        (x) => x.id,
      );
    const form = filesForm([{ filename: 'again.jpg', data: await seededPhoto(nextSeed++, 576, 512) }]);
    const added = await env.app.inject({
      method: 'POST',
      url: `/api/training_sets/${set.id}/photos`,
      headers: { ...form.headers, authorization: `Bearer ${alice.accessToken}` },
      payload: form.payload,
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(await pendingSets()).toContain(set.id);
    const attached = await alice.call('POST', `/api/myproducts/${purchase.id}/photos`, { set_id: set.id });
    expect(attached.statusCode, attached.body).toBe(200);
    const ready = await waitFor(alice, purchase.id, 'ready');
    expect(ready.set_id).toBe(set.id);
    expect(ready.images).toHaveLength(4);
    // Now the delivered shoot's set is in use again.
    expect(await pendingSets()).not.toContain(set.id);
    const [payment] = await env.container.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, paid!.id));
    expect(payment).toMatchObject({ status: 'paid', refundedCents: 0 });
  });

  it('the credit package: paid through the same checkout, credits added once, listed as ready', async () => {
    const before = await balanceOf(bob);
    const res = await bob.call('POST', `/api/products/${PACK.id}/buy`, {});
    expect(res.statusCode, res.body).toBe(201);
    const { session_id } = res.json().checkout;
    await Promise.all([
      bob.call('POST', `/api/dev/checkout/${session_id}/complete`),
      bob.call('POST', '/api/process_payment', { session_id }),
    ]);
    const processed = await bob.call('POST', '/api/process_payment', { session_id });
    expect(processed.json()).toEqual({ status: 'paid', credits_added: 100, balance: before + 100 });
    expect(await balanceOf(bob)).toBe(before + 100);
    const [pack] = (await bob.call('GET', '/api/myproducts')).json() as PurchaseView[];
    expect(pack).toMatchObject({
      product_id: PACK.id,
      status: 'ready',
      credits_added: 100,
      amount_cents: 500,
    });
  });

  it('a delivered shoot keeps its images and download when its model and photos are deleted', async () => {
    const set = await uploadPhotos(alice);
    const { purchase } = await buyWithCredits(alice, set.id);
    const ready = await waitFor(alice, purchase.id, 'ready');
    expect(ready.model_id).not.toBeNull();
    expect((await alice.call('DELETE', `/api/my_models/${ready.model_id}`)).statusCode).toBe(200);
    expect((await alice.call('DELETE', `/api/training_sets/${set.id}`)).statusCode).toBe(200);
    const after = (await alice.call('GET', `/api/myproducts/${purchase.id}`)).json() as PurchaseView;
    expect(after).toMatchObject({ status: 'ready', model_id: null, set_id: null, error: null });
    expect(after.images.map((i) => i.id)).toEqual(ready.images.map((i) => i.id));
    expect((await load(alice, after.images[0]!.url)).statusCode).toBe(200);
    const zip = await alice.call('GET', `/api/myproducts/${purchase.id}/download`);
    expect(zip.statusCode).toBe(200);
    expect(Object.keys(unzipSync(new Uint8Array(zip.rawPayload)))).toHaveLength(4);
    expect(await purchaseLedger(alice, purchase.id)).toEqual([-30]);
  });

  it('an ended purchase says so: no download, no photos; its set is free to buy again', async () => {
    const set = await uploadPhotos(alice);
    mode.refuseTraining = true;
    let failed: PurchaseView;
    try {
      const { purchase } = await buyWithCredits(alice, set.id);
      failed = await waitFor(alice, purchase.id, 'refunded');
    } finally {
      mode.refuseTraining = false;
    }
    const download = await alice.call('GET', `/api/myproducts/${failed.id}/download`);
    expect([download.statusCode, download.json().detail]).toEqual([
      409,
      'This purchase has no images to download.',
    ]);
    const attach = await alice.call('POST', `/api/myproducts/${failed.id}/photos`, { set_id: set.id });
    expect([attach.statusCode, attach.json().detail]).toEqual([
      409,
      'This purchase has ended without a delivery: buy the product again to use these photos.',
    ]);
    // A credit package takes no photos and has nothing to download.
    const [pack] = ((await bob.call('GET', '/api/myproducts')).json() as PurchaseView[]).filter(
      (p) => p.kind === 'credits',
    );
    const bobsSet = await uploadPhotos(bob);
    const packAttach = await bob.call('POST', `/api/myproducts/${pack!.id}/photos`, { set_id: bobsSet.id });
    expect([packAttach.statusCode, packAttach.json().detail]).toEqual([
      409,
      'A credit package takes no photos.',
    ]);
    const packDownload = await bob.call('GET', `/api/myproducts/${pack!.id}/download`);
    expect([packDownload.statusCode, packDownload.json().detail]).toEqual([
      409,
      'This purchase has no images to download.',
    ]);
    // The refunded purchase gave the set back: it is offered and buys a shoot that trains on it.
    const pending = (await alice.call('GET', '/api/onboarding/pending_image_sets')).json().sets;
    expect(pending.map((x: { id: string }) => x.id)).toContain(set.id);
    const { purchase: again } = await buyWithCredits(alice, set.id);
    expect(again.status).toBe('training');
    await waitFor(alice, again.id, 'ready');
  });

  it('credit purchases at once never overspend: each charged once, the rest refused with 402', async () => {
    const carol = await signedInClient(env, 'carol');
    expect(await balanceOf(carol)).toBe(300);
    // Eleven buys of 30 credits at once against 300: ten are charged, one is refused.
    const results = await Promise.all(
      Array.from({ length: 11 }, () =>
        carol.call('POST', `/api/products/${SHOOT.id}/buy`, { pay_with: 'credits' }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([...Array(10).fill(201), 402]);
    expect(await balanceOf(carol)).toBe(0);
    const mine = (await carol.call('GET', '/api/myproducts')).json() as PurchaseView[];
    expect(mine).toHaveLength(10);
    expect(mine.every((p) => p.status === 'waiting_for_photos')).toBe(true);
    for (const p of mine) expect(await purchaseLedger(carol, p.id)).toEqual([-30]);
  });

  it('another person: 404 on the purchase, its images and its download; cannot attach their set', async () => {
    const set = await uploadPhotos(alice);
    const { purchase: waiting } = await buyWithCredits(alice);
    const { purchase } = await buyWithCredits(alice, set.id);
    const ready = await waitFor(alice, purchase.id, 'ready');

    for (const url of [
      `/api/myproducts/${purchase.id}`,
      `/api/myproducts/${purchase.id}/download`,
      `/api/myproducts/${waiting.id}`,
    ]) {
      const res = await bob.call('GET', url);
      expect(res.statusCode, url).toBe(404);
    }
    const bobs = (await bob.call('GET', '/api/myproducts')).json() as PurchaseView[];
    expect(bobs.map((p) => p.product_id)).toEqual([PACK.id]);
    for (const image of ready.images) {
      expect((await bob.call('PUT', `/api/images/${image.id}`)).statusCode).toBe(404);
      expect((await bob.call('DELETE', `/api/images/${image.id}`)).statusCode).toBe(404);
    }
    // Alice's images are untouched.
    expect((await alice.call('GET', `/api/myproducts/${purchase.id}`)).json().images).toHaveLength(4);
    const bobsGallery = (await bob.call('GET', '/api/images?limit=100')).json().items as { id: string }[];
    expect(bobsGallery).toEqual([]);
    expect(readyEmails(bob.email)).toEqual([]);

    // Bob cannot give Alice's waiting purchase his photos, nor Alice use Bob's.
    const bobsSet = await uploadPhotos(bob);
    const intruding = await bob.call('POST', `/api/myproducts/${waiting.id}/photos`, { set_id: bobsSet.id });
    expect(intruding.statusCode).toBe(404);
    const foreign = await alice.call('POST', `/api/myproducts/${waiting.id}/photos`, { set_id: bobsSet.id });
    expect(foreign.statusCode).toBe(404);
    const still = (await alice.call('GET', `/api/myproducts/${waiting.id}`)).json();
    expect(still).toMatchObject({ status: 'waiting_for_photos', set_id: null });
  });
});

describe(`photos gone before the training runs, real wiring, on ${testDb}`, { timeout: 300_000 }, () => {
  // No workers until the photos are gone, so the training job certainly runs after.
  const env = useTestEnv({
    workers: false,
    env: { WELCOME_CREDITS: '100', PRODUCTS_JSON: JSON.stringify([SHOOT, PACK]), WEB_URL: 'http://web.test' },
  });
  const alice = useSignedIn(env, 'alice');
  const { uploadPhotos, buyWithMoney, buyWithCredits, waitFor, purchaseLedger } = journey(env);

  it('the set deleted, or thinned below the minimum, after buying: each purchase refunded once, saying why', async () => {
    const before = await balanceOf(alice);
    // Credits, then the whole set deleted.
    const deletedSet = await uploadPhotos(alice);
    const { purchase: credits } = await buyWithCredits(alice, deletedSet.id);
    expect(credits.status).toBe('training');
    const deleted = await alice.call('DELETE', `/api/training_sets/${deletedSet.id}`);
    // Deleting it is allowed (the training set page does not know about purchases); the shoot is then refunded.
    expect(deleted.statusCode, deleted.body).toBe(200);
    // Money, then photos removed until too few are left.
    const thinnedSet = await uploadPhotos(alice);
    const paid = await buyWithMoney(alice, thinnedSet.id);
    expect(paid.status).toBe('training');
    for (const photo of thinnedSet.photos.slice(0, 2)) {
      const removed = await alice.call('DELETE', `/api/training_sets/${thinnedSet.id}/photos/${photo.id}`);
      expect(removed.statusCode, removed.body).toBe(200);
    }

    await startWorkers(env.container.queue, createJobHandlers(env.container), {
      concurrency: 1,
      log: env.container.log,
    });
    const reason =
      'Training failed: The training set was deleted or lost photos before training could start.';
    const refunded = await waitFor(alice, credits.id, 'refunded');
    expect(refunded.error).toBe(`${reason} Your 30 credits were refunded.`);
    expect(await purchaseLedger(alice, credits.id)).toEqual([-30, 30]);
    const moneyRefunded = await waitFor(alice, paid.id, 'refunded');
    expect(moneyRefunded.error).toBe(`${reason} Your payment of $9.00 was refunded.`);
    const [payment] = await env.container.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, paid.payment_id!));
    expect(payment).toMatchObject({ status: 'refunded', refundedCents: 900 });
    expect(await balanceOf(alice)).toBe(before);
    expect((await ledgerOf(env, alice.userId)).filter((e) => e.reference?.startsWith('job:'))).toEqual([]);
  });
});
