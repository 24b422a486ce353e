import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { startStripeFake, type StripeFake } from '../../../test/fakes/stripe-server.ts';
import { balanceOf, eventually, signedInClient, type Client } from '../../../test/support/api.ts';
import { payments, purchases } from '../../db/schema/index.ts';
import { createJobHandlers } from '../../queue/handlers.ts';
import { queueJobTypes } from '../../queue/registry.ts';
import { createPhotoSet, recordingPipeline } from './products.test-helpers.ts';

describe(`buying products through the Stripe SDK and a fake Stripe on ${testDb}`, () => {
  let env: TestEnv;
  let stripe: StripeFake;
  let webhookUrl: string;
  const pipeline = recordingPipeline();

  beforeAll(async () => {
    stripe = await startStripeFake();
    env = await startTestEnv({
      listen: true,
      env: { ...stripe.env, WELCOME_CREDITS: '0', WEB_URL: 'http://web.test' },
      inject: { shootPipeline: pipeline },
    });
    webhookUrl = `${env.baseUrl}/api/webhooks/stripe`;
  });
  afterAll(async () => {
    await env?.close();
    await stripe?.close();
  });

  const db = () => env.container.database.db;
  const purchasesOf = (userId: string) => db().select().from(purchases).where(eq(purchases.userId, userId));

  async function buy(client: Client, productId: string, body: Record<string, unknown> = {}) {
    const res = await client.call('POST', `/api/products/${productId}/buy`, { pay_with: 'money', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().checkout as { url: string; session_id: string };
  }

  it('a shoot paid by webhook and success page racing, then replayed, is paid once and started once', async () => {
    const client = await signedInClient(env, 'race');
    const setId = await createPhotoSet(env, client.userId, 5);
    const checkout = await buy(client, 'headshots', { set_id: setId });
    const session = stripe.sessions.get(checkout.session_id)!;
    expect(session).toMatchObject({
      amount_total: 2900,
      currency: 'usd',
      client_reference_id: client.userId,
    });
    expect(session.metadata).toMatchObject({ package_id: 'headshots', credits: '0' });
    expect(session.success_url).toBe('http://web.test/my-products?session_id={CHECKOUT_SESSION_ID}');
    expect(session.cancel_url).toBe('http://web.test/products?checkout=cancelled');
    expect((session.line_items[0]!.price_data as { product_data: { name: string } }).product_data.name).toBe(
      'Professional headshots',
    );

    stripe.pay(checkout.session_id);
    const payload = stripe.event('checkout.session.completed', session);
    const [hook, page] = await Promise.all([
      stripe.deliver(webhookUrl, payload),
      client.call('POST', '/api/process_payment', { session_id: checkout.session_id }),
    ]);
    expect(hook).toBe(200);
    expect(page.statusCode, page.body).toBe(200);
    for (let i = 0; i < 3; i++) expect(await stripe.deliver(webhookUrl, payload)).toBe(200);
    // A second event id for the same session (Stripe retries with new ids sometimes): still once.
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);

    const rows = await purchasesOf(client.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'training', setId });
    expect(pipeline.calls.filter((c) => c.id === rows[0]!.id)).toHaveLength(1);
    expect(await balanceOf(client)).toBe(0);
    const [listed] = (await client.call('GET', '/api/myproducts')).json();
    expect(listed).toMatchObject({ status: 'training', amount_cents: 2900, paid_with: 'money' });
  });

  it('refunds a failed shoot at Stripe exactly once, then marks it refunded', async () => {
    const client = await signedInClient(env, 'refund');
    const checkout = await buy(client, 'headshots');
    const session = stripe.pay(checkout.session_id);
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);
    const [row] = await purchasesOf(client.userId);
    expect(row!.status).toBe('waiting_for_photos');

    const { refunds } = env.container.services.products;
    const results = await Promise.all(
      [1, 2].map(() => db().transaction((tx) => refunds.fail(tx, row!.id, 'Training failed: no face found'))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const refunded = await eventually(async () => {
      const view = (await client.call('GET', `/api/myproducts/${row!.id}`)).json();
      return view.status === 'refunded' ? view : undefined;
    });
    expect(refunded.error).toBe('Training failed: no face found. Your payment of $29.00 was refunded.');
    const made = [...stripe.refunds.values()].filter((r) => r.payment_intent === session.payment_intent);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amount: 2900 });
    const calls = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(calls.every((c) => c.idempotencyKey === `purchase-refund:${row!.id}`)).toBe(true);

    // Stripe then tells us of the refund: nothing more happens.
    const charge = {
      id: made[0]!.charge,
      object: 'charge',
      amount: 2900,
      amount_refunded: 2900,
      refunded: true,
      currency: 'usd',
      payment_intent: session.payment_intent,
    };
    expect(await stripe.deliver(webhookUrl, stripe.event('charge.refunded', charge))).toBe(200);
    expect(await db().transaction((tx) => refunds.fail(tx, row!.id, 'again'))).toBe(false);
    const [payment] = await db().select().from(payments).where(eq(payments.id, row!.paymentId!));
    expect(payment).toMatchObject({ status: 'refunded', refundedCents: 2900 });
    expect(
      [...stripe.refunds.values()].filter((r) => r.payment_intent === session.payment_intent),
    ).toHaveLength(1);
    expect((await purchasesOf(client.userId))[0]).toMatchObject({ status: 'refunded' });
  });

  it('a failed shoot says its payment "is being refunded" until Stripe refunded it, then "was refunded"', async () => {
    const client = await signedInClient(env, 'refund-words');
    const checkout = await buy(client, 'headshots');
    const session = stripe.pay(checkout.session_id);
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);
    const [row] = await purchasesOf(client.userId);
    const { refunds } = env.container.services.products;
    // As committed by the failure, before the refund job has called Stripe.
    const failed = await db().transaction(async (tx) => {
      await refunds.fail(tx, row!.id, 'Training failed: no face found');
      const [now] = await tx.select().from(purchases).where(eq(purchases.id, row!.id));
      return now!;
    });
    expect(failed).toMatchObject({
      status: 'failed',
      error: 'Training failed: no face found. Your payment of $29.00 is being refunded.',
    });
    const refunded = await eventually(async () => {
      const view = (await client.call('GET', `/api/myproducts/${row!.id}`)).json();
      return view.status === 'refunded' ? view : undefined;
    });
    expect(refunded.error).toBe('Training failed: no face found. Your payment of $29.00 was refunded.');
  });

  it('a Stripe refund given up for good (its dead letter) alerts the operator and stays "being refunded"', async () => {
    expect(queueJobTypes['purchase.refund'].options.deadLetter).toBe('purchase.refund.failed');
    const client = await signedInClient(env, 'refund-dead');
    const checkout = await buy(client, 'headshots');
    const session = stripe.pay(checkout.session_id);
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);
    const [row] = await purchasesOf(client.userId);
    // As the failure leaves it when every refund try then fails.
    const error = 'Training failed: no face found. Your payment of $29.00 is being refunded.';
    await db().update(purchases).set({ status: 'failed', error }).where(eq(purchases.id, row!.id));
    const errors: unknown[][] = [];
    const log = { ...env.container.log, error: (...args: unknown[]) => errors.push(args) };
    const ctx = { id: 'dead', retryCount: 10, isLastAttempt: true, log: log as typeof env.container.log };
    const handlers = createJobHandlers(env.container);
    expect(await handlers['purchase.refund.failed']({ purchaseId: row!.id }, ctx)).toEqual({ alerted: true });
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toMatchObject({ purchaseId: row!.id, paymentId: row!.paymentId });
    expect((await purchasesOf(client.userId))[0]).toMatchObject({ status: 'failed', error });
  });

  it('a refund made in Stripe marks a shoot refunded; a credit package bought as a product grants credits', async () => {
    const client = await signedInClient(env, 'dashboard');
    const checkout = await buy(client, 'artistic-portraits');
    const session = stripe.pay(checkout.session_id);
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);
    const charge = {
      id: `ch_${session.payment_intent!.slice(3)}`,
      object: 'charge',
      amount: 1900,
      amount_refunded: 1900,
      refunded: true,
      currency: 'usd',
      payment_intent: session.payment_intent,
    };
    expect(await stripe.deliver(webhookUrl, stripe.event('charge.refunded', charge))).toBe(200);
    expect((await purchasesOf(client.userId))[0]).toMatchObject({ status: 'refunded' });

    const pack = await buy(client, 'studio');
    const paid = stripe.pay(pack.session_id);
    expect((paid.line_items[0]!.price_data as { product_data: { name: string } }).product_data.name).toBe(
      'Studio: 1500 credits',
    );
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', paid))).toBe(200);
    expect(await balanceOf(client)).toBe(1500);
    const mine = (await client.call('GET', '/api/myproducts')).json();
    expect(mine[0]).toMatchObject({ product_id: 'studio', status: 'ready', credits_added: 1500 });

    // An expired checkout leaves its purchase unlisted for good.
    const late = await buy(client, 'headshots');
    const expired = { ...stripe.sessions.get(late.session_id)!, status: 'expired' };
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.expired', expired))).toBe(200);
    const rows = await purchasesOf(client.userId);
    expect(rows.find((r) => r.paymentId && r.status === 'cancelled')).toBeTruthy();
    expect((await client.call('GET', '/api/myproducts')).json()).toHaveLength(2);
  });
});
