import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { balanceOf, signedInClient, waitForJob, type Client } from '../../../test/support/api.ts';
import { payments } from '../../db/schema/index.ts';
import { excerpt } from '../credits/credit-history.ts';

/** The Credits page's server side: abandoned checkouts expire, billing explains itself, history in words. */
describe(`credits page: checkout expiry, billing portal status, readable history on ${testDb}`, () => {
  const env = useTestEnv({ env: { WELCOME_CREDITS: '50', WEB_URL: 'http://web.test' } });

  async function purchase(client: Client, packageId = 'starter') {
    const res = await client.call('POST', '/api/credits/purchase', { package_id: packageId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; session_id: string };
  }

  /** Moves a checkout's start back in time, as if it had been opened that long ago. */
  async function age(sessionId: string, hours: number) {
    await env.container.database.db
      .update(payments)
      .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
      .where(eq(payments.stripeSessionId, sessionId));
  }

  const statusOf = async (client: Client, sessionId: string) => {
    const list = (await client.call('GET', '/api/transactions')).json().payments as Array<{
      id: string;
      status: string;
    }>;
    const [row] = await env.container.database.db
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.stripeSessionId, sessionId));
    return list.find((p) => p.id === row!.id)?.status;
  };

  it('expires an abandoned development checkout after 24 hours; it can no longer be paid', async () => {
    const client = await signedInClient(env, 'abandon');
    const fresh = await purchase(client);
    const stale = await purchase(client, 'creator');
    await age(fresh.session_id, 23);
    await age(stale.session_id, 25);

    expect(await statusOf(client, fresh.session_id)).toBe('pending');
    expect(await statusOf(client, stale.session_id)).toBe('expired');
    const page = await client.call('GET', `/api/dev/checkout/${stale.session_id}`);
    expect(page.json().status).toBe('expired');

    const pay = await client.call('POST', `/api/dev/checkout/${stale.session_id}/complete`);
    expect(pay.statusCode).toBe(409);
    expect(pay.json().detail).toMatch(/expired and can no longer be paid/);
    expect(await balanceOf(client)).toBe(50);
    expect(await statusOf(client, stale.session_id)).toBe('expired');

    // The success page's confirmation credits nothing for it either.
    const confirm = await client.call('POST', '/api/process_payment', { session_id: stale.session_id });
    expect(confirm.json()).toMatchObject({ status: 'expired', credits_added: 0, balance: 50 });

    // The fresh one still pays.
    const ok = await client.call('POST', `/api/dev/checkout/${fresh.session_id}/complete`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await balanceOf(client)).toBe(150);
  });

  it("expires only the person's own checkouts when they look", async () => {
    const alice = await signedInClient(env, 'alice-exp');
    const bob = await signedInClient(env, 'bob-exp');
    const bobs = await purchase(bob);
    await age(bobs.session_id, 30);
    await alice.call('GET', '/api/transactions');
    const [row] = await env.container.database.db
      .select({ status: payments.status })
      .from(payments)
      .where(eq(payments.stripeSessionId, bobs.session_id));
    expect(row!.status).toBe('pending');
    // Another person's checkout answers like a missing one.
    expect((await alice.call('POST', `/api/dev/checkout/${bobs.session_id}/complete`)).statusCode).toBe(404);
    expect(await statusOf(bob, bobs.session_id)).toBe('expired');
  });

  it('explains why "Manage billing" is not available without Stripe, and the portal call refuses clearly', async () => {
    const client = await signedInClient(env, 'billing');
    const status = await client.call('GET', '/api/credits/billing-portal');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      available: false,
      reason: expect.stringMatching(/without Stripe/),
    });
    const portal = await client.call('POST', '/api/create-customer-portal-session');
    expect(portal.statusCode).toBe(409);
    expect(portal.json().detail).toMatch(/without Stripe/);
    expect((await env.app.inject({ method: 'GET', url: '/api/credits/billing-portal' })).statusCode).toBe(
      401,
    );
  });

  it('describes history entries by tool, model, prompt start and result; purchases by package', async () => {
    const alice = await signedInClient(env, 'history');
    const bob = await signedInClient(env, 'history-other');
    const prompt =
      'A lighthouse on a cliff at dusk with crashing waves, warm windows, long exposure clouds and gulls';
    const res = await alice.call('POST', '/api/prompt', { text: prompt, model: 'local-aurora', seed: 7 });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().job_id as string;
    await waitForJob(alice, jobId);
    const { session_id } = await purchase(alice);
    await alice.call('POST', `/api/dev/checkout/${session_id}/complete`);

    const history = await alice.call('GET', '/api/credits/history');
    expect(history.statusCode).toBe(200);
    const items = history.json().items as Array<Record<string, unknown>>;
    const spend = items.find((i) => i.reason === 'generation')!;
    expect(spend.job).toMatchObject({
      id: jobId,
      kind: 'generate',
      model: 'local-aurora',
      model_name: expect.stringMatching(/\S/),
      prompt_excerpt: excerpt(prompt),
      status: 'succeeded',
      result: { type: 'image', id: expect.any(String), url: expect.any(String) },
    });
    expect((spend.job as { prompt_excerpt: string }).prompt_excerpt.length).toBeLessThanOrEqual(81);
    expect((spend.job as { prompt_excerpt: string }).prompt_excerpt.endsWith('…')).toBe(true);
    const result = (spend.job as { result: { url: string } }).result;
    expect((await env.app.inject({ method: 'GET', url: result.url })).statusCode).toBe(200);
    const bought = items.find((i) => i.reason === 'purchase')!;
    expect(bought.payment).toMatchObject({ package_name: 'Starter', status: 'paid' });
    expect(bought.job).toBeNull();
    const welcome = items.find((i) => i.reason === 'welcome')!;
    expect(welcome).toMatchObject({ job: null, payment: null });

    // Bob's history names none of Alice's jobs.
    const bobs = (await bob.call('GET', '/api/credits/history')).json().items as Array<{ job: unknown }>;
    expect(bobs.every((i) => i.job === null)).toBe(true);
  });

  it('cuts a prompt excerpt at a word near the limit', () => {
    expect(excerpt('short prompt')).toBe('short prompt');
    expect(excerpt(`${'word '.repeat(30)}`, 20)).toBe('word word word word…');
    expect(excerpt('x'.repeat(100), 10)).toBe(`${'x'.repeat(10)}…`);
  });
});
