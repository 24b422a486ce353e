import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client } from '../../../test/support/api.ts';
import { purchases } from '../../db/schema/index.ts';
import { recordingPipeline } from '../products/products.test-helpers.ts';
import { bindReferral, entries, expectBalance, referralRow } from './referral-rewards.test-helpers.ts';

describe(`referral rewards through the development checkout on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      WELCOME_CREDITS: '0',
      WEB_URL: 'http://web.test',
      REFERRAL_REWARD_CREDITS: '70',
      REFERRAL_WELCOME_CREDITS: '30',
      REFERRAL_MIN_REFERRER_AGE_HOURS: '1',
      // Paid at once: this suite is about completing and taking back; settling has its own.
      REFERRAL_SETTLE_DAYS: '0',
    },
    inject: { shootPipeline: recordingPipeline() },
  });

  /** Pays a development checkout, completing it twice at once (a double click). */
  async function payTwiceAtOnce(client: Client, sessionId: string) {
    const done = await Promise.all([
      client.call('POST', `/api/dev/checkout/${sessionId}/complete`),
      client.call('POST', `/api/dev/checkout/${sessionId}/complete`),
      client.call('POST', '/api/process_payment', { session_id: sessionId }),
    ]);
    for (const res of done) expect(res.statusCode, res.body).toBe(200);
  }

  it('a first credit purchase completes the referral once, without a fingerprint (no card)', async () => {
    const referrer = await signedInClient(env, 'dev-referrer');
    const referred = await signedInClient(env, 'dev-referred');
    const id = await bindReferral(env, referrer.userId, referred.userId, { referrerAgeHours: 2 });
    const res = await referred.call('POST', '/api/credits/purchase', { package_id: 'starter' });
    const sessionId = res.json().session_id as string;
    await payTwiceAtOnce(referred, sessionId);

    const row = await referralRow(env, id);
    expect(row).toMatchObject({
      status: 'completed',
      referrerReward: 70,
      welcomeReward: 30,
      paymentFingerprint: null,
    });
    await expectBalance(env, referrer.userId, 70);
    await expectBalance(env, referred.userId, 130);

    // Someone else's session cannot be paid by the referrer to complete anything (404, no change).
    const second = await referred.call('POST', '/api/credits/purchase', { package_id: 'starter' });
    const foreign = await referrer.call('POST', `/api/dev/checkout/${second.json().session_id}/complete`);
    expect(foreign.statusCode).toBe(404);
    await expectBalance(env, referrer.userId, 70);
    await expectBalance(env, referred.userId, 130);
    expect(await entries(env, referrer.userId, 'referral_reward')).toHaveLength(1);
  });

  it('a shoot refunded for our failure (development: marked refunded at once) takes the rewards back once', async () => {
    const referrer = await signedInClient(env, 'dev-shoot-referrer');
    const referred = await signedInClient(env, 'dev-shoot-referred');
    const id = await bindReferral(env, referrer.userId, referred.userId, { referrerAgeHours: 2 });
    const res = await referred.call('POST', '/api/products/headshots/buy', { pay_with: 'money' });
    expect(res.statusCode, res.body).toBe(201);
    await payTwiceAtOnce(referred, res.json().checkout.session_id);
    expect(await referralRow(env, id)).toMatchObject({ status: 'completed' });
    await expectBalance(env, referrer.userId, 70);
    await expectBalance(env, referred.userId, 30);

    const { db } = env.container.database;
    const [purchase] = await db.select().from(purchases).where(eq(purchases.userId, referred.userId));
    const { refunds } = env.container.services.products;
    const failed = await Promise.all(
      [1, 2].map(() => db.transaction((tx) => refunds.fail(tx, purchase!.id, 'Training failed'))),
    );
    expect(failed.filter(Boolean)).toHaveLength(1);
    const row = await referralRow(env, id);
    expect(row.status).toBe('clawed_back');
    expect(row.clawedBackAt).toBeInstanceOf(Date);
    await expectBalance(env, referrer.userId, 0);
    await expectBalance(env, referred.userId, 0);
    expect(await entries(env, referrer.userId, 'referral_clawback')).toHaveLength(1);
    expect(await entries(env, referred.userId, 'referral_clawback')).toHaveLength(1);
  });
});
