import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { startStripeFake, type StripeFake } from '../../../test/fakes/stripe-server.ts';
import { eventually, signedInClient, type Client } from '../../../test/support/api.ts';
import { payments, purchases, referrals } from '../../db/schema/index.ts';
import { recordingPipeline } from '../products/products.test-helpers.ts';
import { bindReferral, entries, expectBalance, referralRow } from './referral-rewards.test-helpers.ts';

describe(`referral rewards through payments with a fake Stripe on ${testDb}`, () => {
  let env: TestEnv;
  let stripe: StripeFake;
  let webhookUrl: string;

  beforeAll(async () => {
    stripe = await startStripeFake();
    env = await startTestEnv({
      listen: true,
      env: {
        ...stripe.env,
        WELCOME_CREDITS: '0',
        WEB_URL: 'http://web.test',
        REFERRAL_REWARD_CREDITS: '100',
        REFERRAL_WELCOME_CREDITS: '50',
        REFERRAL_MONTHLY_CAP: '2',
        REFERRAL_MIN_REFERRER_AGE_HOURS: '24',
        // Paid at once: these suites are about completing and taking back; settling has its own.
        REFERRAL_SETTLE_DAYS: '0',
      },
      inject: { shootPipeline: recordingPipeline() },
    });
    webhookUrl = `${env.baseUrl}/api/webhooks/stripe`;
  });
  afterAll(async () => {
    await env?.close();
    await stripe?.close();
  });

  const db = () => env.container.database.db;

  /** A paid checkout of `starter` (100 credits, $5), announced by webhook. */
  async function buyAndPay(client: Client, options: { fingerprint?: string } = {}) {
    const res = await client.call('POST', '/api/credits/purchase', { package_id: 'starter' });
    expect(res.statusCode, res.body).toBe(200);
    const sessionId = res.json().session_id as string;
    const session = stripe.pay(sessionId, 'paid', options);
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.stripeSessionId, sessionId));
    return { session, payment: payment! };
  }

  const charge = (intent: string, amountRefunded: number, amount = 500) => ({
    id: `ch_${intent.slice(3)}`,
    object: 'charge',
    amount,
    amount_refunded: amountRefunded,
    refunded: amountRefunded >= amount,
    currency: 'usd',
    payment_intent: intent,
  });

  it('a first payment completes the referral once (webhook and success page racing, replays), with its card fingerprint', async () => {
    const referrer = await signedInClient(env, 'referrer');
    const referred = await signedInClient(env, 'referred');
    const bystander = await signedInClient(env, 'bystander');
    const id = await bindReferral(env, referrer.userId, referred.userId);

    const res = await referred.call('POST', '/api/credits/purchase', { package_id: 'starter' });
    const sessionId = res.json().session_id as string;
    const session = stripe.pay(sessionId, 'paid', { fingerprint: 'fp_card_one' });
    const payload = stripe.event('checkout.session.completed', session);
    const [hook, otherHook, page] = await Promise.all([
      stripe.deliver(webhookUrl, payload),
      stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session)),
      referred.call('POST', '/api/process_payment', { session_id: sessionId }),
    ]);
    expect([hook, otherHook, page.statusCode]).toEqual([200, 200, 200]);
    for (let i = 0; i < 3; i++) expect(await stripe.deliver(webhookUrl, payload)).toBe(200);

    const [payment] = await db().select().from(payments).where(eq(payments.stripeSessionId, sessionId));
    const row = await referralRow(env, id);
    expect(row).toMatchObject({
      status: 'completed',
      paymentId: payment!.id,
      referrerReward: 100,
      welcomeReward: 50,
    });
    expect(row.completedAt).toBeInstanceOf(Date);
    expect(row.clawedBackAt).toBeNull();

    const rewards = await entries(env, referrer.userId, 'referral_reward');
    expect(rewards).toEqual([
      expect.objectContaining({ amount: 100, idempotencyKey: `referral:${id}:referrer`, reference: id }),
    ]);
    const welcome = await entries(env, referred.userId, 'referral_welcome');
    expect(welcome).toEqual([
      expect.objectContaining({ amount: 50, idempotencyKey: `referral:${id}:welcome`, reference: id }),
    ]);
    // Rewards go to these two only: the referrer gets no welcome, the referred no reward, others nothing.
    expect(await entries(env, referrer.userId, 'referral_welcome')).toEqual([]);
    expect(await entries(env, referred.userId, 'referral_reward')).toEqual([]);
    await expectBalance(env, referrer.userId, 100);
    await expectBalance(env, referred.userId, 150);
    await expectBalance(env, bystander.userId, 0);

    // Read from Stripe after the commit: the fingerprint, never card data.
    const fingerprint = await eventually(
      async () => (await referralRow(env, id)).paymentFingerprint ?? undefined,
    );
    expect(fingerprint).toBe('fp_card_one');
    const reads = stripe.requests.filter((r) => r.path === `/v1/payment_intents/${session.payment_intent}`);
    expect(reads.length).toBeGreaterThanOrEqual(1);

    // The referred person's second payment changes nothing.
    await buyAndPay(referred);
    expect(await referralRow(env, id)).toMatchObject({ status: 'completed', paymentId: payment!.id });
    expect(await entries(env, referrer.userId, 'referral_reward')).toHaveLength(1);
    await expectBalance(env, referrer.userId, 100);
    await expectBalance(env, referred.userId, 250);
    // Paying does not complete a referral of the payer's own (the referrer paying is not a referral).
    await buyAndPay(referrer);
    await expectBalance(env, referrer.userId, 200);
    expect(await entries(env, referrer.userId, 'referral_reward')).toHaveLength(1);
  });

  it('a payment that is not the first does nothing, and buying with credits is no payment', async () => {
    const referrer = await signedInClient(env, 'referrer-late');
    const paidBefore = await signedInClient(env, 'paid-before');
    await buyAndPay(paidBefore);
    const late = await bindReferral(env, referrer.userId, paidBefore.userId);
    await buyAndPay(paidBefore);
    expect(await referralRow(env, late)).toMatchObject({ status: 'joined', paymentId: null });

    const withCredits = await signedInClient(env, 'with-credits');
    const viaCredits = await bindReferral(env, referrer.userId, withCredits.userId);
    await env.container.services.ledger.grant({
      userId: withCredits.userId,
      amount: 600,
      reason: 'grant',
      idempotencyKey: `test:${withCredits.userId}`,
    });
    const bought = await withCredits.call('POST', '/api/products/headshots/buy', { pay_with: 'credits' });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(await referralRow(env, viaCredits)).toMatchObject({ status: 'joined', paymentId: null });
    await expectBalance(env, referrer.userId, 0);
    await expectBalance(env, withCredits.userId, 0);
  });

  it('two first payments at once complete the referral once, by one of them', async () => {
    const referrer = await signedInClient(env, 'double-referrer');
    const referred = await signedInClient(env, 'double-referred');
    const id = await bindReferral(env, referrer.userId, referred.userId);
    const sessions = [];
    for (let i = 0; i < 2; i++) {
      const res = await referred.call('POST', '/api/credits/purchase', { package_id: 'starter' });
      sessions.push(stripe.pay(res.json().session_id as string));
    }
    const delivered = await Promise.all(
      sessions.map((s) => stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', s))),
    );
    expect(delivered).toEqual([200, 200]);
    const row = await referralRow(env, id);
    expect(row.status).toBe('completed');
    const paid = await db().select().from(payments).where(eq(payments.userId, referred.userId));
    expect(paid.map((p) => p.id)).toContain(row.paymentId);
    expect(paid.every((p) => p.status === 'paid')).toBe(true);
    await expectBalance(env, referrer.userId, 100);
    await expectBalance(env, referred.userId, 250);
  });

  it('over the monthly cap, or from a referrer too new, completes unrewarded: welcome credits only', async () => {
    const busy = await signedInClient(env, 'busy-referrer');
    const people = [];
    for (let i = 0; i < 3; i++) {
      const person = await signedInClient(env, `capped-${i}`);
      people.push({ person, id: await bindReferral(env, busy.userId, person.userId) });
      await buyAndPay(person);
    }
    const statuses = await Promise.all(people.map(async (p) => (await referralRow(env, p.id)).status));
    expect(statuses).toEqual(['completed', 'completed', 'unrewarded']);
    expect(await referralRow(env, people[2]!.id)).toMatchObject({ referrerReward: 0, welcomeReward: 50 });
    expect(await entries(env, busy.userId, 'referral_reward')).toHaveLength(2);
    await expectBalance(env, busy.userId, 200);
    for (const { person } of people) await expectBalance(env, person.userId, 150);

    // An unrewarded referral refunded takes back the welcome credits only.
    const third = await referralRow(env, people[2]!.id);
    const [thirdPayment] = await db().select().from(payments).where(eq(payments.id, third.paymentId!));
    const refund = stripe.event('charge.refunded', charge(thirdPayment!.stripePaymentIntent!, 500));
    expect(await stripe.deliver(webhookUrl, refund)).toBe(200);
    expect(await referralRow(env, people[2]!.id)).toMatchObject({ status: 'clawed_back' });
    await expectBalance(env, people[2]!.person.userId, 0);
    await expectBalance(env, busy.userId, 200);

    // The cap is per calendar month: rewards of last month leave room this month.
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 0, 12));
    for (const p of people.slice(0, 2)) {
      await db().update(referrals).set({ completedAt: lastMonth }).where(eq(referrals.id, p.id));
    }
    const next = await signedInClient(env, 'capped-next');
    const nextId = await bindReferral(env, busy.userId, next.userId);
    await buyAndPay(next);
    expect(await referralRow(env, nextId)).toMatchObject({ status: 'completed', referrerReward: 100 });
    await expectBalance(env, busy.userId, 300);

    const fresh = await signedInClient(env, 'new-referrer');
    const friend = await signedInClient(env, 'new-friend');
    const id = await bindReferral(env, fresh.userId, friend.userId, { referrerAgeHours: 23 });
    await buyAndPay(friend);
    expect(await referralRow(env, id)).toMatchObject({
      status: 'unrewarded',
      referrerReward: 0,
      welcomeReward: 50,
    });
    await expectBalance(env, fresh.userId, 0);
    await expectBalance(env, friend.userId, 150);
  });

  it('a refund, even in part, takes both rewards back once however often Stripe says so', async () => {
    const referrer = await signedInClient(env, 'refund-referrer');
    const referred = await signedInClient(env, 'refund-referred');
    const id = await bindReferral(env, referrer.userId, referred.userId);
    const { session } = await buyAndPay(referred);
    await expectBalance(env, referred.userId, 150);

    const partial = stripe.event('charge.refunded', charge(session.payment_intent!, 100));
    for (let i = 0; i < 3; i++) expect(await stripe.deliver(webhookUrl, partial)).toBe(200);
    const row = await referralRow(env, id);
    expect(row.status).toBe('clawed_back');
    expect(row.clawedBackAt).toBeInstanceOf(Date);
    // 20 of the 100 purchased credits (a fifth refunded), and the 50 welcome credits.
    await expectBalance(env, referred.userId, 80);
    await expectBalance(env, referrer.userId, 0);

    // Then the rest, twice under new event ids: the purchase is clawed back in full, rewards not again.
    for (let i = 0; i < 2; i++) {
      const full = stripe.event('charge.refunded', charge(session.payment_intent!, 500));
      expect(await stripe.deliver(webhookUrl, full)).toBe(200);
    }
    await expectBalance(env, referred.userId, 0);
    await expectBalance(env, referrer.userId, 0);
    expect(await entries(env, referrer.userId, 'referral_clawback')).toEqual([
      expect.objectContaining({ amount: -100, idempotencyKey: `referral:${id}:referrer:clawback` }),
    ]);
    expect(await entries(env, referred.userId, 'referral_clawback')).toEqual([
      expect.objectContaining({ amount: -50, idempotencyKey: `referral:${id}:welcome:clawback` }),
    ]);
    expect((await referralRow(env, id)).clawedBackAt).toEqual(row.clawedBackAt);
  });

  it('a dispute takes both rewards back once; a dispute of someone else’s payment touches nothing', async () => {
    const referrer = await signedInClient(env, 'dispute-referrer');
    const referred = await signedInClient(env, 'dispute-referred');
    const id = await bindReferral(env, referrer.userId, referred.userId);
    const other = await signedInClient(env, 'other-referrer');
    const otherFriend = await signedInClient(env, 'other-friend');
    const otherId = await bindReferral(env, other.userId, otherFriend.userId);
    const { session } = await buyAndPay(referred);
    await buyAndPay(otherFriend);

    const dispute = {
      id: 'dp_test_1',
      object: 'dispute',
      amount: 500,
      currency: 'usd',
      reason: 'fraudulent',
      status: 'needs_response',
      charge: `ch_${session.payment_intent!.slice(3)}`,
      payment_intent: session.payment_intent,
    };
    const payload = stripe.event('charge.dispute.created', dispute);
    for (let i = 0; i < 2; i++) expect(await stripe.deliver(webhookUrl, payload)).toBe(200);
    expect(await stripe.deliver(webhookUrl, stripe.event('charge.dispute.created', dispute))).toBe(200);
    expect(await referralRow(env, id)).toMatchObject({ status: 'clawed_back' });
    await expectBalance(env, referrer.userId, 0);
    // The purchase's credits are the dispute's to settle; only the welcome credits go.
    await expectBalance(env, referred.userId, 100);
    expect(await referralRow(env, otherId)).toMatchObject({ status: 'completed' });
    await expectBalance(env, other.userId, 100);
    await expectBalance(env, otherFriend.userId, 150);
    // An unknown payment intent is acknowledged and ignored.
    const unknown = stripe.event('charge.dispute.created', { ...dispute, payment_intent: 'pi_nobody' });
    expect(await stripe.deliver(webhookUrl, unknown)).toBe(200);
  });

  it('a photo shoot paid with money completes the referral; refunded for our failure, its rewards go back once', async () => {
    const referrer = await signedInClient(env, 'shoot-referrer');
    const referred = await signedInClient(env, 'shoot-referred');
    const id = await bindReferral(env, referrer.userId, referred.userId);
    const res = await referred.call('POST', '/api/products/headshots/buy', { pay_with: 'money' });
    expect(res.statusCode, res.body).toBe(201);
    const session = stripe.pay(res.json().checkout.session_id);
    expect(await stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session))).toBe(200);
    expect(await referralRow(env, id)).toMatchObject({ status: 'completed', welcomeReward: 50 });
    await expectBalance(env, referrer.userId, 100);
    await expectBalance(env, referred.userId, 50);

    const [purchase] = await db().select().from(purchases).where(eq(purchases.userId, referred.userId));
    const { refunds } = env.container.services.products;
    await db().transaction((tx) => refunds.fail(tx, purchase!.id, 'Training failed'));
    // The queued refund reaches Stripe, then the payment is marked refunded and the rewards go.
    await eventually(async () => ((await referralRow(env, id)).status === 'clawed_back' ? true : undefined));
    const made = [...stripe.refunds.values()].filter((r) => r.payment_intent === session.payment_intent);
    expect(made).toHaveLength(1);
    // Stripe's charge.refunded that follows finds them gone already.
    const refunded = stripe.event('charge.refunded', charge(session.payment_intent!, 2900, 2900));
    expect(await stripe.deliver(webhookUrl, refunded)).toBe(200);
    await expectBalance(env, referrer.userId, 0);
    await expectBalance(env, referred.userId, 0);
    expect(await entries(env, referrer.userId, 'referral_clawback')).toHaveLength(1);
    expect(await entries(env, referred.userId, 'referral_clawback')).toHaveLength(1);
  });
});
