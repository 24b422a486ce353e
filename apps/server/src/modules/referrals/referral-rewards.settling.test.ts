import type { ReferralStats, ReferralView } from '@lumina/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { startStripeFake, type StripeFake } from '../../../test/fakes/stripe-server.ts';
import { balanceOf, eventually, signedInClient, type Client } from '../../../test/support/api.ts';
import { payments, referrals } from '../../db/schema/index.ts';
import { fakeClock } from '../auth/auth.test-helpers.ts';
import { recordingPipeline } from '../products/products.test-helpers.ts';
import { entries, expectBalance, referralRow } from './referral-rewards.test-helpers.ts';

/**
 * Referral farms and the settling period, through HTTP with a fake Stripe: people bound from the
 * referrer's address or from one address, or paying with one card, earn nothing; a clean referral's
 * rewards are pending (not spendable) for REFERRAL_SETTLE_DAYS, cancelled by a refund within them, and
 * spendable after them.
 */
describe(`referral farms and settling on ${testDb}`, () => {
  let env: TestEnv;
  let stripe: StripeFake;
  let webhookUrl: string;
  let clock: ReturnType<typeof fakeClock>;
  const DAY_MS = 86_400_000;

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
        REFERRAL_MONTHLY_CAP: '3',
        REFERRAL_MIN_REFERRER_AGE_HOURS: '0',
        REFERRAL_SETTLE_DAYS: '14',
      },
      inject: { shootPipeline: recordingPipeline() },
    });
    webhookUrl = `${env.baseUrl}/api/webhooks/stripe`;
    clock = fakeClock(env);
  });
  afterAll(async () => {
    await env?.close();
    await stripe?.close();
  });

  const db = () => env.container.database.db;

  let hosts = 0;
  /** An address no other person in this suite uses. */
  const freshAddress = () => `10.77.${Math.floor(++hosts / 250)}.${hosts % 250}`;

  /** A referrer whose referral page (and so default code) was opened from `address`. */
  async function referrer(name: string, address = freshAddress()) {
    const client = await signedInClient(env, name, { address });
    const stats = await client.call('GET', '/api/referrals/stats');
    expect(stats.statusCode, stats.body).toBe(200);
    return { client, code: (stats.json() as ReferralStats).codes[0]!.code };
  }

  /** A new person who signs up and accepts `code` from `address`; returns them and their referral id. */
  async function referred(name: string, code: string, address = freshAddress()) {
    const client = await signedInClient(env, name, { address });
    const res = await client.call('POST', `/api/referrals/track?referral_code=${code}`);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await db().select().from(referrals).where(eq(referrals.referredId, client.userId));
    return { client, id: row!.id };
  }

  /** Starts a checkout of `starter` (100 credits, $5) and pays it at Stripe with the card `fingerprint`. */
  async function checkout(client: Client, fingerprint?: string) {
    const res = await client.call('POST', '/api/credits/purchase', { package_id: 'starter' });
    expect(res.statusCode, res.body).toBe(200);
    return stripe.pay(res.json().session_id as string, 'paid', fingerprint ? { fingerprint } : {});
  }

  const completed = (session: ReturnType<StripeFake['pay']>) =>
    stripe.deliver(webhookUrl, stripe.event('checkout.session.completed', session));

  const refund = (intent: string) =>
    stripe.event('charge.refunded', {
      id: `ch_${intent.slice(3)}`,
      object: 'charge',
      amount: 500,
      amount_refunded: 500,
      refunded: true,
      currency: 'usd',
      payment_intent: intent,
    });

  const people = async (client: Client) =>
    ((await client.call('GET', '/api/referrals/referrals')).json() as { referrals: ReferralView[] })
      .referrals;
  const stats = async (client: Client) =>
    (await client.call('GET', '/api/referrals/stats')).json() as ReferralStats;

  /**
   * The clock moves the sign-in layer too, so sessions made before a move have ended: the person signs
   * in again, as they would coming back weeks later.
   */
  const later = (client: Client) => signedInClient(env, 'later', { email: client.email });

  /** Waits until the card check after the payment has read the referral's card. */
  const cardRead = (id: string) =>
    eventually(async () => (await referralRow(env, id)).paymentFingerprint ?? undefined);

  /** Runs the settle job of each referral now (as pg-boss does once its start time comes) and waits for it. */
  async function settleNow(ids: readonly string[]) {
    for (const id of ids) await env.container.queue.send('referral.settle', { referralId: id });
    await eventually(async () => {
      const rows = await Promise.all(ids.map((id) => referralRow(env, id)));
      return rows.every((r) => r.status !== 'settling') || undefined;
    });
  }

  it('five people bound from the referrer’s own address and paying at once earn nothing, and say why', async () => {
    const farmer = await referrer('farmer', '10.66.0.1');
    const farm = [];
    for (let i = 0; i < 5; i++) farm.push(await referred(`farm-${i}`, farmer.code, '10.66.0.1'));
    const sessions = await Promise.all(farm.map((f) => checkout(f.client)));
    expect(await Promise.all(sessions.map(completed))).toEqual([200, 200, 200, 200, 200]);

    for (const f of farm) {
      expect(await referralRow(env, f.id)).toMatchObject({
        status: 'not_eligible',
        ineligibleReason: 'shared_address',
        referrerReward: 0,
        welcomeReward: 0,
      });
      // They keep what they bought, and get no welcome credits.
      await expectBalance(env, f.client.userId, 100);
    }
    clock.advance(15 * DAY_MS);
    await Promise.all(farm.map((f) => env.container.services.referralRewards.settle(f.id)));
    await expectBalance(env, farmer.client.userId, 0);
    expect(await entries(env, farmer.client.userId, 'referral_reward')).toEqual([]);
    const farmerLater = await later(farmer.client);
    const seen = await people(farmerLater);
    expect(seen).toHaveLength(5);
    for (const person of seen) {
      expect(person).toMatchObject({
        status: 'not_eligible',
        not_eligible_reason: 'shared_address',
        reward_credits: 0,
        settles_at: null,
      });
    }
    expect(await stats(farmerLater)).toMatchObject({ credits_earned: 0, credits_pending: 0, completed: 0 });
  });

  it('people bound from one address (not the referrer’s) are not eligible, the first one too', async () => {
    const host = await referrer('host');
    const same = freshAddress();
    const first = await referred('same-first', host.code, same);
    expect(await completed(await checkout(first.client))).toBe(200);
    // Alone so far from that address: settling.
    expect(await referralRow(env, first.id)).toMatchObject({ status: 'settling', referrerReward: 100 });
    const second = await referred('same-second', host.code, same);
    expect(await completed(await checkout(second.client))).toBe(200);
    // The second reveals the pair: both are refused, the first before anything was granted.
    expect(await referralRow(env, second.id)).toMatchObject({
      status: 'not_eligible',
      ineligibleReason: 'shared_address',
    });
    expect(await referralRow(env, first.id)).toMatchObject({
      status: 'not_eligible',
      ineligibleReason: 'shared_address',
    });
    await settleNow([first.id, second.id]);
    await expectBalance(env, host.client.userId, 0);
    await expectBalance(env, first.client.userId, 100);
    await expectBalance(env, second.client.userId, 100);
  });

  it('a card shared across referred people, or with the referrer, makes their referrals not eligible', async () => {
    const host = await referrer('card-host');
    // Four people from four addresses paying at once with one card.
    const group = [];
    for (let i = 0; i < 4; i++) group.push(await referred(`card-${i}`, host.code));
    const sessions = await Promise.all(group.map((g) => checkout(g.client, 'fp_shared_card')));
    expect(await Promise.all(sessions.map(completed))).toEqual([200, 200, 200, 200]);
    for (const g of group) await cardRead(g.id);
    const rows = await Promise.all(group.map((g) => referralRow(env, g.id)));
    expect(rows.map((r) => [r.status, r.ineligibleReason])).toEqual(
      Array.from({ length: 4 }, () => ['not_eligible', 'shared_card']),
    );

    // The referrer's own card.
    const payer = await referrer('card-payer');
    expect(await completed(await checkout(payer.client, 'fp_referrers_card'))).toBe(200);
    const friend = await referred('card-friend', payer.code);
    expect(await completed(await checkout(friend.client, 'fp_referrers_card'))).toBe(200);
    await cardRead(friend.id);
    expect(await referralRow(env, friend.id)).toMatchObject({
      status: 'not_eligible',
      ineligibleReason: 'shared_card',
    });
    expect((await people(payer.client))[0]).toMatchObject({
      status: 'not_eligible',
      not_eligible_reason: 'shared_card',
      reward_credits: 0,
    });

    clock.advance(15 * DAY_MS);
    await settleNow([...group.map((g) => g.id), friend.id]);
    await expectBalance(env, host.client.userId, 0);
    await expectBalance(env, payer.client.userId, 100);
    for (const g of [...group, friend]) await expectBalance(env, g.client.userId, 100);
  });

  it('a clean referral is pending (not spendable) for the settling period, then spendable once', async () => {
    const host = await referrer('clean-host');
    const friend = await referred('clean-friend', host.code);
    expect(await completed(await checkout(friend.client, 'fp_clean_card'))).toBe(200);
    await cardRead(friend.id);

    const row = await referralRow(env, friend.id);
    expect(row).toMatchObject({ status: 'settling', referrerReward: 100, welcomeReward: 50 });
    expect(row.settlesAt!.getTime() - row.completedAt!.getTime()).toBe(14 * DAY_MS);
    // Pending: shown, not in the balance, so no spend can reach it.
    expect(await balanceOf(host.client)).toBe(0);
    expect(await balanceOf(friend.client)).toBe(100);
    expect(await stats(host.client)).toMatchObject({
      credits_pending: 100,
      credits_earned: 0,
      settle_days: 14,
    });
    expect((await people(host.client))[0]).toMatchObject({
      status: 'settling',
      reward_credits: 100,
      settles_at: row.settlesAt!.toISOString(),
    });

    // Its job runs early (a clock ahead of ours): nothing changes.
    clock.advance(13 * DAY_MS);
    await env.container.services.referralRewards.settle(friend.id);
    expect((await referralRow(env, friend.id)).status).toBe('settling');
    await expectBalance(env, host.client.userId, 0);

    clock.advance(2 * DAY_MS);
    await settleNow([friend.id]);
    await settleNow([friend.id]);
    expect(await referralRow(env, friend.id)).toMatchObject({ status: 'completed' });
    await expectBalance(env, host.client.userId, 100);
    await expectBalance(env, friend.client.userId, 150);
    const hostLater = await later(host.client);
    expect(await balanceOf(hostLater)).toBe(100);
    expect(await stats(hostLater)).toMatchObject({ credits_pending: 0, credits_earned: 100 });
    expect((await people(hostLater))[0]).toMatchObject({
      status: 'completed',
      reward_credits: 100,
      settles_at: null,
    });

    // After the period a refund takes them back as before.
    const [payment] = await db().select().from(payments).where(eq(payments.id, row.paymentId!));
    expect(await stripe.deliver(webhookUrl, refund(payment!.stripePaymentIntent!))).toBe(200);
    await expectBalance(env, host.client.userId, 0);
    await expectBalance(env, friend.client.userId, 0);
  });

  it('a refund or dispute within the period cancels the pending rewards exactly once', async () => {
    const host = await referrer('refund-host');
    const friend = await referred('refund-friend', host.code);
    const session = await checkout(friend.client, 'fp_refunded_card');
    expect(await completed(session)).toBe(200);
    const intent = session.payment_intent!;
    const dispute = stripe.event('charge.dispute.created', {
      id: 'dp_settling',
      object: 'dispute',
      amount: 500,
      currency: 'usd',
      reason: 'fraudulent',
      status: 'needs_response',
      charge: `ch_${intent.slice(3)}`,
      payment_intent: intent,
    });
    const results = await Promise.all([
      stripe.deliver(webhookUrl, refund(intent)),
      stripe.deliver(webhookUrl, refund(intent)),
      stripe.deliver(webhookUrl, dispute),
    ]);
    expect(results).toEqual([200, 200, 200]);
    const row = await referralRow(env, friend.id);
    expect(row.status).toBe('clawed_back');

    clock.advance(15 * DAY_MS);
    await env.container.services.referralRewards.settle(friend.id);
    await env.container.queue.send('referral.settle', { referralId: friend.id });
    expect(await referralRow(env, friend.id)).toMatchObject({
      status: 'clawed_back',
      clawedBackAt: row.clawedBackAt,
    });
    // Nothing was granted, so nothing is taken back: only the purchase's own clawback.
    for (const reason of ['referral_reward', 'referral_welcome', 'referral_clawback']) {
      expect(await entries(env, host.client.userId, reason)).toEqual([]);
      expect(await entries(env, friend.client.userId, reason)).toEqual([]);
    }
    await expectBalance(env, host.client.userId, 0);
    await expectBalance(env, friend.client.userId, 0);
    expect((await people(await later(host.client)))[0]).toMatchObject({
      status: 'clawed_back',
      reward_credits: 0,
    });
  });

  it('clean referred people paying at once earn at most the monthly cap, exactly', async () => {
    const host = await referrer('cap-host');
    const group = [];
    for (let i = 0; i < 5; i++) group.push(await referred(`cap-${i}`, host.code));
    const sessions = await Promise.all(group.map((g, i) => checkout(g.client, `fp_cap_${i}`)));
    expect(await Promise.all(sessions.map(completed))).toEqual([200, 200, 200, 200, 200]);
    for (const g of group) await cardRead(g.id);
    const rewards = (await Promise.all(group.map((g) => referralRow(env, g.id)))).map(
      (r) => r.referrerReward,
    );
    expect(rewards.sort()).toEqual([0, 0, 100, 100, 100]);
    expect((await stats(host.client)).credits_pending).toBe(300);

    clock.advance(15 * DAY_MS);
    await settleNow(group.map((g) => g.id));
    const statuses = (await Promise.all(group.map((g) => referralRow(env, g.id)))).map((r) => r.status);
    expect(statuses.sort()).toEqual(['completed', 'completed', 'completed', 'unrewarded', 'unrewarded']);
    await expectBalance(env, host.client.userId, 300);
    for (const g of group) await expectBalance(env, g.client.userId, 150);
  });
});
