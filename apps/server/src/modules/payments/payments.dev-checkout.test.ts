import { describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client } from '../../../test/support/api.ts';
import { ConfigError, loadConfig } from '../../config.ts';

describe(`development checkout, packages, history and reviews on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: { WELCOME_CREDITS: '50', WEB_URL: 'http://web.test' },
  });

  const balance = async (c: Client) => (await c.call('GET', '/api/credits/balance')).json().balance as number;

  async function devPurchase(client: Client, packageId = 'starter') {
    const res = await client.call('POST', '/api/credits/purchase', { package_id: packageId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; session_id: string };
  }

  it('lists the configured packages publicly, with credits per unit', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/credits/packages' });
    expect(res.statusCode).toBe(200);
    expect(res.json().packages).toEqual([
      {
        id: 'starter',
        name: 'Starter',
        credits: 100,
        price_cents: 500,
        currency: 'usd',
        stripe_price_id: null,
        badge: null,
        credits_per_unit: 20,
      },
      {
        id: 'creator',
        name: 'Creator',
        credits: 500,
        price_cents: 2000,
        currency: 'usd',
        stripe_price_id: null,
        badge: 'best value',
        credits_per_unit: 25,
      },
      {
        id: 'studio',
        name: 'Studio',
        credits: 1500,
        price_cents: 5000,
        currency: 'usd',
        stripe_price_id: null,
        badge: null,
        credits_per_unit: 30,
      },
    ]);
  });

  it('buys through the development checkout page, crediting once', async () => {
    const client = await signedInClient(env, 'dev');
    expect(await balance(client)).toBe(50);
    const { url, session_id } = await devPurchase(client, 'creator');
    expect(session_id).toMatch(/^cs_dev_/);
    expect(url).toBe(`http://web.test/credits/dev-checkout?session_id=${session_id}`);

    const summary = await client.call('GET', `/api/dev/checkout/${session_id}`);
    expect(summary.json()).toMatchObject({
      session_id,
      package_id: 'creator',
      credits: 500,
      amount_cents: 2000,
      status: 'pending',
      success_url: `http://web.test/credits/success?session_id=${session_id}`,
    });
    const done = await client.call('POST', `/api/dev/checkout/${session_id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({
      status: 'paid',
      redirect_url: `http://web.test/credits/success?session_id=${session_id}`,
    });
    expect(await balance(client)).toBe(550);
    await client.call('POST', `/api/dev/checkout/${session_id}/complete`);
    const processed = await client.call('POST', '/api/process_payment', { session_id });
    expect(processed.json()).toEqual({ status: 'paid', credits_added: 500, balance: 550 });
    expect(await balance(client)).toBe(550);

    const cancelled = await devPurchase(client);
    const cancel = await client.call('POST', `/api/dev/checkout/${cancelled.session_id}/cancel`);
    expect(cancel.json()).toEqual({
      status: 'cancelled',
      redirect_url: 'http://web.test/credits?checkout=cancelled',
    });
    expect(await balance(client)).toBe(550);
    // A cancelled checkout shows as cancelled, not pending for ever, and can no longer be paid.
    const listed = (await client.call('GET', '/api/transactions?limit=10')).json().payments as Array<{
      status: string;
    }>;
    expect(listed.map((p) => p.status)).toContain('cancelled');
    expect(listed.map((p) => p.status)).not.toContain('pending');
    await client.call('POST', `/api/dev/checkout/${cancelled.session_id}/complete`);
    expect(await balance(client)).toBe(550);
  });

  it("hides another person's development session (404) and refuses webhooks not signed by us", async () => {
    const owner = await signedInClient(env, 'dev-owner');
    const other = await signedInClient(env, 'dev-other');
    const { session_id } = await devPurchase(owner);
    expect((await other.call('GET', `/api/dev/checkout/${session_id}`)).statusCode).toBe(404);
    expect((await other.call('POST', `/api/dev/checkout/${session_id}/complete`)).statusCode).toBe(404);
    expect(await balance(owner)).toBe(50);
    expect(await balance(other)).toBe(50);

    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: session_id,
          object: 'checkout.session',
          payment_status: 'paid',
          amount_total: 500,
          currency: 'usd',
          client_reference_id: owner.userId,
          metadata: {},
        },
      },
    });
    const forged = await env.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_guess' }),
      },
      payload,
    });
    expect(forged.statusCode).toBe(400);
    expect(await balance(owner)).toBe(50);
  });

  it('pages the history newest first with the running balance', async () => {
    const client = await signedInClient(env, 'history');
    for (let i = 0; i < 3; i++) {
      const { session_id } = await devPurchase(client);
      await client.call('POST', `/api/dev/checkout/${session_id}/complete`);
    }
    await env.container.services.ledger.spend({
      userId: client.userId,
      amount: 30,
      reference: `job-h-${client.userId}`,
    });
    const seen: Array<{ amount: number; reason: string; balance_after: number }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await client.call(
        'GET',
        `/api/credits/history?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as { items: typeof seen; next_cursor: string | null };
      seen.push(...page.items);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen.map((e) => [e.reason, e.amount, e.balance_after])).toEqual([
      ['spend', -30, 320],
      ['purchase', 100, 350],
      ['purchase', 100, 250],
      ['purchase', 100, 150],
      ['welcome', 50, 50],
    ]);
    expect((await client.call('GET', '/api/credits/history?cursor=abc')).statusCode).toBe(400);
    const other = await signedInClient(env, 'history-other');
    expect((await other.call('GET', '/api/credits/history')).json().items).toHaveLength(1);
  });

  it('reviews a paid purchase once, only by its buyer, and summarises per product', async () => {
    const client = await signedInClient(env, 'reviewer');
    const other = await signedInClient(env, 'not-reviewer');
    const unpaid = await devPurchase(client, 'studio');
    const { session_id } = await devPurchase(client, 'studio');
    await client.call('POST', `/api/dev/checkout/${session_id}/complete`);

    const pending = (await client.call('GET', '/api/reviews')).json().pending;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ product_id: 'studio', package_name: 'Studio' });
    const paymentId = pending[0].payment_id as string;
    const tx = (await client.call('GET', '/api/transactions')).json().payments as Array<{
      id: string;
      status: string;
    }>;
    const unpaidId = tx.find((p) => p.status === 'pending')!.id;
    expect(unpaid.session_id).not.toBe(session_id);

    const review = { payment_id: paymentId, product_id: 'studio', rating: 4, comment: '  Lovely  ' };
    expect((await other.call('POST', '/api/reviews', review)).statusCode).toBe(404);
    expect((await client.call('POST', '/api/reviews', { ...review, rating: 6 })).statusCode).toBe(400);
    expect((await client.call('POST', '/api/reviews', { ...review, rating: 3.5 })).statusCode).toBe(400);
    expect(
      (await client.call('POST', '/api/reviews', { ...review, comment: 'x'.repeat(1001) })).statusCode,
    ).toBe(400);
    expect((await client.call('POST', '/api/reviews', { ...review, product_id: 'starter' })).statusCode).toBe(
      400,
    );
    expect((await client.call('POST', '/api/reviews', { ...review, payment_id: unpaidId })).statusCode).toBe(
      400,
    );

    const created = await client.call('POST', '/api/reviews', review);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      payment_id: paymentId,
      product_id: 'studio',
      rating: 4,
      comment: 'Lovely',
    });
    expect((await client.call('POST', '/api/reviews', { ...review, rating: 1 })).statusCode).toBe(409);
    expect((await client.call('GET', '/api/reviews')).json().pending).toEqual([]);

    const second = await devPurchase(other, 'studio');
    await other.call('POST', `/api/dev/checkout/${second.session_id}/complete`);
    const otherPayment = (await other.call('GET', '/api/reviews')).json().pending[0].payment_id as string;
    expect(
      (
        await other.call('POST', '/api/reviews', {
          payment_id: otherPayment,
          product_id: 'studio',
          rating: 5,
        })
      ).statusCode,
    ).toBe(201);

    const summary = await env.app.inject({ method: 'GET', url: '/api/reviews/summary' });
    expect(summary.statusCode).toBe(200);
    expect(summary.json().products).toEqual([{ product_id: 'studio', average: 4.5, count: 2 }]);
  });

  it('refuses to start in production without STRIPE_SECRET_KEY, and reads packages from config', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', FILE_URL_SECRET: 'x'.repeat(40) })).toThrow(
      ConfigError,
    );
    try {
      loadConfig({ NODE_ENV: 'production', FILE_URL_SECRET: 'x'.repeat(40) });
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toMatch(/^STRIPE_SECRET_KEY: /m);
    }
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() =>
      loadConfig({ CREDIT_PACKAGES_JSON: '[{"id":"a","name":"A","credits":1,"priceCents":9.5}]' }),
    ).toThrow(/CREDIT_PACKAGES_JSON/);
    const config = loadConfig({
      CREDIT_PACKAGES_JSON:
        '[{"id":"mini","name":"Mini","credits":10,"priceCents":100,"currency":"eur","badge":"new"}]',
    });
    expect(config.payments.packages).toEqual([
      { id: 'mini', name: 'Mini', credits: 10, priceCents: 100, currency: 'eur', badge: 'new' },
    ]);
  });
});
