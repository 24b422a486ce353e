import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { startStripeFake, type StripeFake } from '../../../test/fakes/stripe-server.ts';
import { signedInClient, type Client } from '../../../test/support/api.ts';
import { creditBalances, creditLedger, payments, stripeEvents } from '../../db/schema/index.ts';

describe(`payments through the Stripe SDK and a fake Stripe on ${testDb}`, () => {
  let env: TestEnv;
  let stripe: StripeFake;
  let webhookUrl: string;

  beforeAll(async () => {
    stripe = await startStripeFake();
    env = await startTestEnv({ workers: false, listen: true, env: { ...stripe.env, WELCOME_CREDITS: '0' } });
    webhookUrl = `${env.baseUrl}/api/webhooks/stripe`;
  });
  afterAll(async () => {
    await env?.close();
    await stripe?.close();
  });

  const db = () => env.container.database.db;
  const balance = async (c: Client) => (await c.call('GET', '/api/credits/balance')).json().balance as number;
  const paymentOf = async (sessionId: string) =>
    (await db().select().from(payments).where(eq(payments.stripeSessionId, sessionId)))[0]!;
  const purchaseEntries = async (userId: string) =>
    db()
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, 'purchase')));

  /** The balance row equals the sum of the user's ledger (the ledger invariant). */
  async function expectLedgerConsistent(userId: string) {
    const [sum] = await db()
      .select({ total: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int` })
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId));
    const [row] = await db().select().from(creditBalances).where(eq(creditBalances.userId, userId));
    expect(row?.balance ?? 0).toBe(sum!.total);
  }

  async function buy(client: Client, packageId = 'starter') {
    const res = await client.call('POST', '/api/credits/purchase', { package_id: packageId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; session_id: string };
  }

  async function buyAndPay(client: Client) {
    const { session_id } = await buy(client);
    const session = stripe.pay(session_id);
    const payload = stripe.event('checkout.session.completed', session);
    expect(await stripe.deliver(webhookUrl, payload)).toBe(200);
    return { sessionId: session_id, session, payload };
  }

  it('creates a Checkout Session for a package with the user, metadata and return URLs', async () => {
    const client = await signedInClient(env, 'buyer');
    const { url, session_id } = await buy(client, 'creator');
    expect(url).toBe(
      `http://${stripe.env.STRIPE_API_HOST}:${stripe.env.STRIPE_API_PORT}/checkout/${session_id}`,
    );
    const session = stripe.sessions.get(session_id)!;
    expect(session.client_reference_id).toBe(client.userId);
    expect(session.metadata).toMatchObject({ package_id: 'creator', credits: '500', user_id: client.userId });
    expect(session.amount_total).toBe(2000);
    expect(session.currency).toBe('usd');
    expect(session.success_url).toMatch(/\/credits\/success\?session_id=\{CHECKOUT_SESSION_ID\}$/);
    expect(session.cancel_url).toMatch(/\/credits\?checkout=cancelled$/);
    expect(session.customer).toMatch(/^cus_/);
    const create = stripe.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(create.idempotencyKey).toMatch(/^checkout:/);

    const tx = (await client.call('GET', '/api/transactions?limit=5')).json();
    expect(tx.payments).toEqual([
      expect.objectContaining({
        status: 'pending',
        package_id: 'creator',
        credits: 500,
        amount_cents: 2000,
        currency: 'usd',
      }),
    ]);

    // The generic creator shares the path; return URLs must stay on this site.
    const foreign = await client.call('POST', '/api/create_stripe_checkout_session', {
      package_id: 'starter',
      success_url: 'https://evil.example/steal',
    });
    expect(foreign.statusCode).toBe(400);
    const own = await client.call('POST', '/api/create_stripe_checkout_session', {
      package_id: 'starter',
      success_url: `${env.baseUrl}/credits/done?session_id={CHECKOUT_SESSION_ID}`,
    });
    expect(own.statusCode).toBe(200);
    expect(stripe.sessions.get(own.json().session_id)!.success_url).toContain('/credits/done');
    expect((await client.call('POST', '/api/credits/purchase', { package_id: 'nope' })).statusCode).toBe(400);
  });

  it('credits a paid session once however often the webhook is replayed', async () => {
    const client = await signedInClient(env, 'replay');
    const { sessionId, payload } = await buyAndPay(client);
    for (let i = 0; i < 4; i++) expect(await stripe.deliver(webhookUrl, payload)).toBe(200);
    expect(await balance(client)).toBe(100);
    expect(await purchaseEntries(client.userId)).toHaveLength(1);
    expect((await paymentOf(sessionId)).status).toBe('paid');
    await expectLedgerConsistent(client.userId);
  });

  it('lists the payment with the receipt Stripe gives for its charge', async () => {
    const client = await signedInClient(env, 'receipt');
    const { sessionId } = await buyAndPay(client);
    const [payment] = (await client.call('GET', '/api/transactions?limit=5')).json().payments ?? [];
    expect(payment).toMatchObject({ status: 'paid', credits: 100 });
    expect(payment.receipt_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/receipts\/ch_/);
    // Kept, so the next listing does not ask Stripe again.
    expect((await paymentOf(sessionId)).receiptUrl).toBe(payment.receipt_url);
  });

  it('answers 400 to a bad signature and changes nothing', async () => {
    const client = await signedInClient(env, 'badsig');
    const { session_id } = await buy(client);
    const payload = stripe.event('checkout.session.completed', stripe.pay(session_id));
    expect(await stripe.deliver(webhookUrl, payload, { secret: 'whsec_wrong' })).toBe(400);
    const unsigned = await fetch(webhookUrl, {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.status).toBe(400);
    expect(await balance(client)).toBe(0);
    expect((await paymentOf(session_id)).status).toBe('pending');
    const eventId = JSON.parse(payload).id as string;
    expect(await db().select().from(stripeEvents).where(eq(stripeEvents.id, eventId))).toHaveLength(0);
  });

  it('credits once when 20 deliveries of the same event arrive at once', async () => {
    const client = await signedInClient(env, 'concurrent');
    const { session_id } = await buy(client);
    const payload = stripe.event('checkout.session.completed', stripe.pay(session_id));
    const statuses = await Promise.all(Array.from({ length: 20 }, () => stripe.deliver(webhookUrl, payload)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await balance(client)).toBe(100);
    expect(await purchaseEntries(client.userId)).toHaveLength(1);
    await expectLedgerConsistent(client.userId);
  });

  it('credits once when the webhook and the success page race', async () => {
    const client = await signedInClient(env, 'race');
    for (let round = 0; round < 3; round++) {
      const { session_id } = await buy(client);
      const payload = stripe.event('checkout.session.completed', stripe.pay(session_id));
      const [status, processed] = await Promise.all([
        stripe.deliver(webhookUrl, payload),
        client.call('POST', '/api/process_payment', { session_id }),
        stripe.deliver(
          webhookUrl,
          stripe.event('checkout.session.completed', stripe.sessions.get(session_id)),
        ),
      ]);
      expect(status).toBe(200);
      expect(processed.statusCode, processed.body).toBe(200);
      expect(processed.json()).toMatchObject({ status: 'paid', credits_added: 100 });
    }
    expect(await balance(client)).toBe(300);
    expect(await purchaseEntries(client.userId)).toHaveLength(3);
    await expectLedgerConsistent(client.userId);
  });

  it('lets the success page credit before a late webhook, and the webhook then changes nothing', async () => {
    const client = await signedInClient(env, 'late');
    const { session_id } = await buy(client);
    const pending = await client.call('POST', '/api/process_payment', { session_id });
    expect(pending.json()).toEqual({ status: 'pending', credits_added: 0, balance: 0 });
    const session = stripe.pay(session_id);
    const processed = await client.call('POST', '/api/process_payment', { session_id });
    expect(processed.json()).toEqual({ status: 'paid', credits_added: 100, balance: 100 });
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);
    expect(await balance(client)).toBe(100);
  });

  it("hides another person's checkout (404)", async () => {
    const owner = await signedInClient(env, 'owner');
    const other = await signedInClient(env, 'other');
    const { session_id } = await buy(owner);
    stripe.pay(session_id);
    const res = await other.call('POST', '/api/process_payment', { session_id });
    expect(res.statusCode).toBe(404);
    expect(await balance(other)).toBe(0);
    expect((await paymentOf(session_id)).status).toBe('pending');
  });

  it('claws back credits on a refund, letting the balance go negative, once per event', async () => {
    const client = await signedInClient(env, 'refund');
    const { sessionId, session } = await buyAndPay(client);
    await env.container.services.ledger.spend({
      userId: client.userId,
      amount: 70,
      reference: `job-${client.userId}`,
    });
    expect(await balance(client)).toBe(30);

    const charge = (amountRefunded: number, refunded: boolean) => ({
      id: 'ch_1',
      object: 'charge',
      amount: 500,
      amount_refunded: amountRefunded,
      refunded,
      currency: 'usd',
      payment_intent: session.payment_intent,
      receipt_url: 'https://pay.stripe.example/receipts/1',
    });
    // A partial refund of $2 of $5 takes 40 of 100 credits back.
    const partial = stripe.event('charge.refunded', charge(200, false));
    expect(await stripe.deliver(webhookUrl, partial)).toBe(200);
    expect(await stripe.deliver(webhookUrl, partial)).toBe(200);
    expect(await balance(client)).toBe(-10);
    expect((await paymentOf(sessionId)).status).toBe('paid');

    const full = stripe.event('charge.refunded', charge(500, true));
    expect(await stripe.deliver(webhookUrl, full)).toBe(200);
    expect(await stripe.deliver(webhookUrl, full)).toBe(200);
    expect(await balance(client)).toBe(-70);
    const payment = await paymentOf(sessionId);
    expect(payment).toMatchObject({ status: 'refunded', clawedBackCredits: 100, refundedCents: 500 });
    const tx = (await client.call('GET', '/api/transactions')).json();
    expect(tx.payments[0]).toMatchObject({
      status: 'refunded',
      receipt_url: 'https://pay.stripe.example/receipts/1',
    });
    const history = (await client.call('GET', '/api/credits/history')).json();
    expect(
      history.items
        .filter((i: { reason: string }) => i.reason === 'clawback')
        .map((i: { amount: number }) => i.amount),
    ).toEqual([-60, -40]);
    await expectLedgerConsistent(client.userId);
  });

  it('waits on a delayed payment: async failure marks it failed, async success credits it', async () => {
    const client = await signedInClient(env, 'async');
    const a = await buy(client);
    const unpaid = stripe.pay(a.session_id, 'unpaid');
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', unpaid))).toBe(200);
    expect((await paymentOf(a.session_id)).status).toBe('pending');
    expect(
      await stripe.deliver(webhookUrl, stripe.event('checkout.session.async_payment_failed', unpaid)),
    ).toBe(200);
    expect((await paymentOf(a.session_id)).status).toBe('failed');
    expect(await balance(client)).toBe(0);

    const b = await buy(client);
    const later = stripe.pay(b.session_id, 'unpaid');
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', later))).toBe(200);
    later.payment_status = 'paid';
    expect(
      await stripe.deliver(webhookUrl, stripe.event('checkout.session.async_payment_succeeded', later)),
    ).toBe(200);
    expect((await paymentOf(b.session_id)).status).toBe('paid');
    expect(await balance(client)).toBe(100);
  });

  it('marks a checkout that expired unpaid as expired, crediting nothing', async () => {
    const client = await signedInClient(env, 'expired');
    const { session_id } = await buy(client);
    const expired = { ...stripe.pay(session_id, 'unpaid'), status: 'expired' };
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.expired', expired))).toBe(200);
    expect((await paymentOf(session_id)).status).toBe('expired');
    expect(await balance(client)).toBe(0);
  });

  it('acknowledges unknown events and never credits a session whose amount does not match', async () => {
    expect(
      await stripe.deliver(webhookUrl, stripe.event('customer.created', { id: 'cus_x', object: 'customer' })),
    ).toBe(200);
    const client = await signedInClient(env, 'tamper');
    const { session_id } = await buy(client);
    const session = { ...stripe.pay(session_id), amount_total: 1 };
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);
    expect(await balance(client)).toBe(0);
    expect((await paymentOf(session_id)).status).toBe('pending');
  });

  it('offers the billing portal only once a Stripe customer exists', async () => {
    const client = await signedInClient(env, 'portal-none');
    expect((await client.call('GET', '/api/credits/billing-portal')).json()).toEqual({
      available: false,
      reason: expect.stringMatching(/no billing account yet/),
    });
    const refused = await client.call('POST', '/api/create-customer-portal-session');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/first purchase/);
    await buy(client);
    expect((await client.call('GET', '/api/credits/billing-portal')).json()).toEqual({
      available: true,
      reason: null,
    });
  });

  it('asks Stripe to expire an unpaid Checkout Session after CHECKOUT_EXPIRY_SECONDS (24 h)', async () => {
    const client = await signedInClient(env, 'expiry');
    const before = Math.floor(Date.now() / 1000);
    await buy(client);
    const created = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    const expiresAt = Number(created.body.expires_at);
    expect(expiresAt - before).toBeGreaterThanOrEqual(86_400 - 5);
    expect(expiresAt - before).toBeLessThanOrEqual(86_400 + 5);
  });

  it("opens the billing portal for the user's stored customer", async () => {
    const client = await signedInClient(env, 'portal');
    await buy(client);
    const res = await client.call('POST', '/api/create-customer-portal-session');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toMatch(/\/portal\/bps_/);
    const portal = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    const customers = stripe.requests.filter(
      (r) =>
        r.path === '/v1/customers' &&
        r.body.metadata &&
        (r.body.metadata as Record<string, string>).user_id === client.userId,
    );
    expect(customers).toHaveLength(1);
    expect(stripe.customers.has(portal.body.customer as string)).toBe(true);
  });
});
