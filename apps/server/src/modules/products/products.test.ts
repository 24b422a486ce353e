import { and, eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { startTestEnv, testDb, useTestEnv } from '../../../test/harness.ts';
import { balanceOf, signedInClient, type Client } from '../../../test/support/api.ts';
import { creditLedger, payments, purchases } from '../../db/schema/index.ts';
import { BUILT_IN_SHOOTS } from './product-catalogue.ts';
import { checkShootRatios, checkTrainers } from './products.service.ts';
import { createPhotoSet, deliverImages, recordingPipeline } from './products.test-helpers.ts';

describe(`buying products (credits and the development checkout) on ${testDb}`, () => {
  const pipeline = recordingPipeline();
  const env = useTestEnv({
    workers: false,
    env: { WELCOME_CREDITS: '1000', WEB_URL: 'http://web.test' },
    inject: { shootPipeline: pipeline },
  });
  const db = () => env.container.database.db;
  const purchasesOf = (userId: string) => db().select().from(purchases).where(eq(purchases.userId, userId));
  const startsOf = (purchaseId: string) => pipeline.calls.filter((c) => c.id === purchaseId).length;

  async function payDev(client: Client, productId: string, body: Record<string, unknown> = {}) {
    const res = await client.call('POST', `/api/products/${productId}/buy`, { pay_with: 'money', ...body });
    expect(res.statusCode, res.body).toBe(201);
    const { checkout } = res.json();
    const done = await client.call('POST', `/api/dev/checkout/${checkout.session_id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    return { sessionId: checkout.session_id as string, redirect: done.json().redirect_url as string };
  }

  it('lists the products in order, the onboarding product first, with review summaries', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/products' });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list.map((p: { id: string }) => p.id)).toEqual(env.config.products.map((p) => p.id));
    expect(list[0]).toMatchObject({
      id: 'headshots',
      kind: 'photo_shoot',
      name: 'Professional headshots',
      price: { amount_cents: 2900, currency: 'usd' },
      price_credits: 600,
      images: 40,
      min_photos: 5,
      max_photos: 30,
      credits: null,
      review: { average: 0, count: 0 },
      cover_urls: ['/products/headshots-1.webp', '/products/headshots-2.webp', '/products/headshots-3.webp'],
    });
    expect(list.find((p: { id: string }) => p.id === 'starter')).toMatchObject({
      kind: 'credits',
      credits: 100,
      price: { amount_cents: 500, currency: 'usd' },
      price_credits: null,
      images: null,
      min_photos: null,
    });

    // A shoot bought with money is reviewed by its product id and named as bought.
    const client = await signedInClient(env, 'reviewer');
    await payDev(client, 'headshots');
    const pending = (await client.call('GET', '/api/reviews')).json();
    const item = (pending.pending ?? pending)[0];
    expect(item).toMatchObject({ product_id: 'headshots', product_name: 'Professional headshots' });
    const wrong = await client.call('POST', '/api/reviews', {
      payment_id: item.payment_id,
      product_id: 'starter',
      rating: 5,
    });
    expect(wrong.statusCode).toBe(400);
    const review = await client.call('POST', '/api/reviews', {
      payment_id: item.payment_id,
      product_id: 'headshots',
      rating: 4,
    });
    expect(review.statusCode, review.body).toBe(201);
    const after = (await env.app.inject({ method: 'GET', url: '/api/products' })).json();
    expect(after[0].review).toEqual({ average: 4, count: 1 });
    expect(after[1].review).toEqual({ average: 0, count: 0 });
  });

  it('refuses at start-up a photo shoot whose trainer is not a train model, naming PRODUCTS_JSON', () => {
    const shoot = { ...BUILT_IN_SHOOTS[0]!, shoot: { ...BUILT_IN_SHOOTS[0]!.shoot, trainer: 'no-such' } };
    expect(() => checkTrainers([shoot], env.config.models)).toThrow(/PRODUCTS_JSON.*no-such/);
    const trainer = env.config.models.find((m) => m.capability === 'train')!.id;
    const good = { ...shoot, shoot: { ...shoot.shoot, trainer } };
    expect(() => checkTrainers([good], env.config.models)).not.toThrow();
    // Not a train model: a text-to-image model is refused too.
    const t2i = env.config.models.find((m) => m.capability === 'text-to-image')!.id;
    expect(() =>
      checkTrainers([{ ...shoot, shoot: { ...shoot.shoot, trainer: t2i } }], env.config.models),
    ).toThrow();
  });

  it("refuses at start-up a shoot prompt's aspect ratio its trainer's base model cannot make", async () => {
    const built = BUILT_IN_SHOOTS[0]!;
    const odd = {
      ...built,
      shoot: { ...built.shoot, prompts: [{ prompt: '{trigger} on a beach', count: 1, aspectRatio: '7:3' }] },
    };
    const { models, providers } = env.config;
    expect(() => checkShootRatios(BUILT_IN_SHOOTS, models, providers.trainer)).not.toThrow();
    // The default vendor's trainer, and a named one.
    expect(() => checkShootRatios([odd], models, providers.trainer)).toThrow(
      /PRODUCTS_JSON \/ PRODUCTS_FILE: product "headshots" asks for aspect ratio "7:3"/,
    );
    const trainer = models.find((m) => m.capability === 'train')!.id;
    expect(() =>
      checkShootRatios([{ ...odd, shoot: { ...odd.shoot, trainer } }], models, providers.trainer),
    ).toThrow(/7:3/);
    // The server itself does not start with such a product.
    await expect(
      startTestEnv({ workers: false, env: { PRODUCTS_JSON: JSON.stringify([odd]) } }),
    ).rejects.toThrow(/PRODUCTS_JSON.*7:3/);
  });

  it('buys a photo shoot with credits: one charge, the pipeline started once; too few credits stores nothing', async () => {
    const client = await signedInClient(env, 'credits');
    const setId = await createPhotoSet(env, client.userId, 5);
    const res = await client.call('POST', '/api/products/headshots/buy', {
      pay_with: 'credits',
      set_id: setId,
      expected_credits: 600,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { purchase, checkout, balance } = res.json();
    expect(checkout).toBeNull();
    expect(balance).toBe(400);
    expect(await balanceOf(client)).toBe(400);
    expect(purchase).toMatchObject({
      product_id: 'headshots',
      product_name: 'Professional headshots',
      kind: 'photo_shoot',
      status: 'training',
      paid_with: 'credits',
      credits_spent: 600,
      amount_cents: null,
      set_id: setId,
      progress: { stage: 'training', images_done: 0, images_total: 40 },
      images: [],
    });
    expect(startsOf(purchase.id)).toBe(1);
    const spends = await db()
      .select()
      .from(creditLedger)
      .where(
        and(eq(creditLedger.userId, client.userId), eq(creditLedger.reference, `purchase:${purchase.id}`)),
      );
    expect(spends).toEqual([expect.objectContaining({ amount: -600, reason: 'purchase' })]);

    const poor = await client.call('POST', '/api/products/headshots/buy', {
      pay_with: 'credits',
      set_id: setId,
    });
    expect(poor.statusCode).toBe(402);
    expect(poor.json().detail).toMatch(/Not enough credits/);
    expect(await purchasesOf(client.userId)).toHaveLength(1);
    expect(await balanceOf(client)).toBe(400);

    const mine = (await client.call('GET', '/api/myproducts')).json();
    expect(mine.map((p: { id: string }) => p.id)).toEqual([purchase.id]);
  });

  it('refuses bad purchases with a clear 4xx and changes nothing', async () => {
    const client = await signedInClient(env, 'refused');
    const other = await signedInClient(env, 'other-set');
    const othersSet = await createPhotoSet(env, other.userId, 5);
    const smallSet = await createPhotoSet(env, client.userId, 3);
    const buy = (id: string, body: Record<string, unknown>) =>
      client.call('POST', `/api/products/${id}/buy`, body);

    const unknown = await buy('no-such-product', { pay_with: 'money' });
    expect([unknown.statusCode, unknown.json().detail]).toEqual([404, 'This product was not found.']);
    const pack = await buy('starter', { pay_with: 'credits' });
    expect([pack.statusCode, pack.json().detail]).toEqual([400, 'Starter is sold for money only ($5.00).']);
    const changed = await buy('headshots', {
      pay_with: 'money',
      expected_price: { amount_cents: 1900, currency: 'usd' },
    });
    expect([changed.statusCode, changed.json().detail]).toEqual([
      409,
      'The price of Professional headshots is now $29.00. Please check it and buy again.',
    ]);
    const changedCredits = await buy('headshots', { pay_with: 'credits', expected_credits: 500 });
    expect([changedCredits.statusCode, changedCredits.json().detail]).toEqual([
      409,
      'The price of Professional headshots is now 600 credits. Please check it and buy again.',
    ]);
    const foreign = await buy('headshots', { pay_with: 'credits', set_id: othersSet });
    expect([foreign.statusCode, foreign.json().detail]).toEqual([404, 'This photo set was not found.']);
    const missing = await buy('headshots', { pay_with: 'money', set_id: crypto.randomUUID() });
    expect(missing.statusCode).toBe(404);
    const small = await buy('headshots', { pay_with: 'credits', set_id: smallSet });
    expect(small.statusCode).toBe(400);
    expect(small.json().detail).toMatch(/3 photos; a photo shoot needs 5 to 30/);
    const away = await buy('headshots', { pay_with: 'money', success_url: 'https://evil.example/x' });
    expect(away.statusCode).toBe(400);

    expect(await purchasesOf(client.userId)).toHaveLength(0);
    expect(await db().select().from(payments).where(eq(payments.userId, client.userId))).toHaveLength(0);
    expect(await balanceOf(client)).toBe(1000);
  });

  it('buys with money through the development checkout: paid once, started once, photos added later', async () => {
    const client = await signedInClient(env, 'money');
    const res = await client.call('POST', '/api/products/headshots/buy', {
      pay_with: 'money',
      expected_price: { amount_cents: 2900, currency: 'usd' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { purchase, checkout, balance } = res.json();
    expect(purchase).toBeNull();
    expect(balance).toBeNull();
    expect(checkout.url).toContain(checkout.session_id);
    // Not paid: not listed.
    expect((await client.call('GET', '/api/myproducts')).json()).toEqual([]);
    const [pending] = await purchasesOf(client.userId);
    expect(pending).toMatchObject({ status: 'pending_payment', paidWith: 'money' });

    const [first, second] = await Promise.all([
      client.call('POST', `/api/dev/checkout/${checkout.session_id}/complete`),
      client.call('POST', `/api/dev/checkout/${checkout.session_id}/complete`),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(first.json().redirect_url).toBe(`http://web.test/my-products?session_id=${checkout.session_id}`);
    expect(startsOf(pending!.id)).toBe(1);
    expect(await balanceOf(client)).toBe(1000);

    const [listed] = (await client.call('GET', '/api/myproducts')).json();
    expect(listed).toMatchObject({
      id: pending!.id,
      status: 'waiting_for_photos',
      paid_with: 'money',
      amount_cents: 2900,
      currency: 'usd',
      progress: { stage: 'photos' },
    });
    expect(listed.payment_id).toBeTruthy();

    const other = await signedInClient(env, 'stranger');
    const othersSet = await createPhotoSet(env, other.userId, 6);
    const foreignSet = await client.call('POST', `/api/myproducts/${listed.id}/photos`, {
      set_id: othersSet,
    });
    expect(foreignSet.statusCode).toBe(404);
    for (const [method, url, body] of [
      ['GET', `/api/myproducts/${listed.id}`, undefined],
      ['POST', `/api/myproducts/${listed.id}/photos`, { set_id: othersSet }],
      ['GET', `/api/myproducts/${listed.id}/download`, undefined],
    ] as const) {
      const res = await other.call(method, url, body);
      expect([res.statusCode, res.json().detail]).toEqual([404, 'This purchase was not found.']);
    }

    const setId = await createPhotoSet(env, client.userId, 5);
    const attached = await client.call('POST', `/api/myproducts/${listed.id}/photos`, { set_id: setId });
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json()).toMatchObject({ status: 'training', set_id: setId });
    expect(startsOf(listed.id)).toBe(2);
    const again = await client.call('POST', `/api/myproducts/${listed.id}/photos`, { set_id: setId });
    expect(again.statusCode).toBe(409);
    expect(startsOf(listed.id)).toBe(2);
  });

  it('a cancelled checkout leaves no purchase to list', async () => {
    const client = await signedInClient(env, 'cancel');
    const res = await client.call('POST', '/api/products/artistic-portraits/buy', { pay_with: 'money' });
    const { checkout } = res.json();
    const cancel = await client.call('POST', `/api/dev/checkout/${checkout.session_id}/cancel`);
    expect(cancel.json().redirect_url).toBe('http://web.test/products?checkout=cancelled');
    const [row] = await purchasesOf(client.userId);
    expect(row!.status).toBe('cancelled');
    expect((await client.call('GET', '/api/myproducts')).json()).toEqual([]);
  });

  it('an abandoned checkout neither hides its photo set nor outlives its expired payment', async () => {
    const client = await signedInClient(env, 'abandon');
    const setId = await createPhotoSet(env, client.userId, 5);
    const pendingSets = async () =>
      (
        (await client.call('GET', '/api/onboarding/pending_image_sets')).json().sets as Array<{ id: string }>
      ).map((s) => s.id);
    const res = await client.call('POST', '/api/products/headshots/buy', {
      pay_with: 'money',
      set_id: setId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [pending] = await purchasesOf(client.userId);
    expect(pending!.status).toBe('pending_payment');
    // Not paid (yet, or ever): the set is still the person's to use.
    expect(await pendingSets()).toEqual([setId]);

    // The development checkout expires lazily; its purchase is cancelled with it.
    await db()
      .update(payments)
      .set({ createdAt: new Date(Date.now() - 7 * 24 * 3600 * 1000) })
      .where(eq(payments.id, pending!.paymentId!));
    const sessionId = res.json().checkout.session_id as string;
    expect((await client.call('GET', `/api/dev/checkout/${sessionId}`)).statusCode).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.id, pending!.paymentId!));
    expect(payment!.status).toBe('expired');
    expect((await purchasesOf(client.userId))[0]!.status).toBe('cancelled');
    expect(await pendingSets()).toEqual([setId]);
    // Paying the expired checkout now is refused and starts nothing.
    const late = await client.call('POST', `/api/dev/checkout/${sessionId}/complete`);
    expect(late.statusCode).toBeGreaterThanOrEqual(400);
    expect(startsOf(pending!.id)).toBe(0);
  });

  it("after the commit that starts a shoot, wakes the queue and tells the buyer's progress streams", async () => {
    const client = await signedInClient(env, 'wake');
    const setId = await createPhotoSet(env, client.userId, 5);
    const { jobs } = env.container.services;
    const wake = vi.spyOn(jobs.service, 'wake');
    let heard = 0;
    const stop = jobs.bus.subscribe(client.userId, () => (heard += 1));
    try {
      const bought = await client.call('POST', '/api/products/headshots/buy', {
        pay_with: 'credits',
        set_id: setId,
      });
      expect(bought.statusCode, bought.body).toBe(201);
      expect([wake.mock.calls.length, heard]).toEqual([1, 1]);

      // Paid by the development checkout (the webhook path), photos added afterwards.
      await payDev(client, 'headshots');
      expect([wake.mock.calls.length, heard]).toEqual([2, 2]);
      const waiting = (await purchasesOf(client.userId)).find((p) => p.status === 'waiting_for_photos')!;
      const attached = await client.call('POST', `/api/myproducts/${waiting.id}/photos`, { set_id: setId });
      expect(attached.statusCode, attached.body).toBe(200);
      expect([wake.mock.calls.length, heard]).toEqual([3, 3]);
    } finally {
      stop();
      wake.mockRestore();
    }
  });

  it('a credit package bought as a product grants its credits and is listed as ready', async () => {
    const client = await signedInClient(env, 'pack');
    await payDev(client, 'creator');
    expect(await balanceOf(client)).toBe(1500);
    const [listed] = (await client.call('GET', '/api/myproducts')).json();
    expect(listed).toMatchObject({
      product_id: 'creator',
      kind: 'credits',
      status: 'ready',
      credits_added: 500,
      amount_cents: 2000,
      progress: { stage: 'done' },
    });
    // The credits page's own checkout keeps working.
    const old = await client.call('POST', '/api/credits/purchase', { package_id: 'starter' });
    expect(old.statusCode, old.body).toBe(200);
    await client.call('POST', `/api/dev/checkout/${old.json().session_id}/complete`);
    expect(await balanceOf(client)).toBe(1600);
  });

  it('refunds a failed credits purchase exactly once', async () => {
    const client = await signedInClient(env, 'refund-credits');
    const setId = await createPhotoSet(env, client.userId, 5);
    const { purchase } = (
      await client.call('POST', '/api/products/artistic-portraits/buy', {
        pay_with: 'credits',
        set_id: setId,
      })
    ).json();
    expect(await balanceOf(client)).toBe(600);
    const { refunds } = env.container.services.products;
    // Concurrent failures: the conditional update lets one of them win; the others refund nothing.
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        db().transaction((tx) => refunds.fail(tx, purchase.id, 'Training failed: the trainer crashed')),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await db().transaction((tx) => refunds.fail(tx, purchase.id, 'again'))).toBe(false);
    expect(await balanceOf(client)).toBe(1000);
    const view = (await client.call('GET', `/api/myproducts/${purchase.id}`)).json();
    expect(view.status).toBe('refunded');
    expect(view.error).toBe('Training failed: the trainer crashed. Your 400 credits were refunded.');
  });

  it('refunds a failed development-checkout purchase at once, once', async () => {
    const client = await signedInClient(env, 'refund-dev');
    const { sessionId } = await payDev(client, 'headshots');
    const [row] = await purchasesOf(client.userId);
    const { refunds } = env.container.services.products;
    expect(await db().transaction((tx) => refunds.fail(tx, row!.id, 'Generating failed.'))).toBe(true);
    expect(await db().transaction((tx) => refunds.fail(tx, row!.id, 'Generating failed.'))).toBe(false);
    const view = (await client.call('GET', `/api/myproducts/${row!.id}`)).json();
    expect(view).toMatchObject({
      status: 'refunded',
      error: 'Generating failed. Your payment of $29.00 was refunded.',
    });
    const [payment] = await db().select().from(payments).where(eq(payments.stripeSessionId, sessionId));
    expect(payment).toMatchObject({ status: 'refunded', refundedCents: 2900 });
  });

  it('delivers the images: listed with signed URLs and downloaded as one zip', async () => {
    const client = await signedInClient(env, 'zip');
    const setId = await createPhotoSet(env, client.userId, 5);
    const { purchase } = (
      await client.call('POST', '/api/products/headshots/buy', { pay_with: 'credits', set_id: setId })
    ).json();
    const early = await client.call('GET', `/api/myproducts/${purchase.id}/download`);
    expect([early.statusCode, early.json().detail]).toEqual([409, 'Nothing has been delivered yet.']);

    await db().update(purchases).set({ status: 'generating' }).where(eq(purchases.id, purchase.id));
    const made = await deliverImages(env, client.userId, purchase.id, 3);
    const view = (await client.call('GET', `/api/myproducts/${purchase.id}`)).json();
    expect(view.progress).toEqual({ stage: 'generating', percent: 7, images_done: 3, images_total: 40 });
    expect(view.images.map((i: { id: string }) => i.id)).toEqual(made.map((m) => m.id));
    expect(view.images[0].url).toMatch(/signature=|X-Amz-Signature=/);

    const res = await client.call('GET', `/api/myproducts/${purchase.id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="headshots-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const files = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(files)).toEqual(['headshots-1.png', 'headshots-2.png', 'headshots-3.png']);
    for (const [i, image] of made.entries()) {
      const stored = Buffer.concat(await (await env.container.storage.get(image.storageKey)).body.toArray());
      expect(Buffer.from(files[`headshots-${i + 1}.png`]!).equals(stored)).toBe(true);
    }
  });
});
