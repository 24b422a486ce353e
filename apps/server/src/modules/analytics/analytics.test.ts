import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { signedInClient, waitForJob, eventually } from '../../../test/support/api.ts';
import { startFakePostHog, type FakePostHog } from '../../../test/fakes/posthog-server.ts';
import { ProviderError, type TextToImageProvider } from '../../adapters/providers/text-to-image.ts';
import { LocalTextToImage } from '../../adapters/providers/local/local.text-to-image.ts';
import { eventUuid } from './analytics.ts';

const REFUSED = 'refuse-this-prompt';

/** The local engine, except that it refuses one prompt (a failed job without any vendor). */
function refusingLocal(): TextToImageProvider {
  const local = new LocalTextToImage();
  return {
    name: local.name,
    available: true,
    run: (request, ctx) => {
      if (request.prompt.includes(REFUSED))
        throw new ProviderError('refused', 'rejected', 'The provider refused this prompt.');
      return local.run(request, ctx);
    },
    cancel: () => local.cancel(),
  };
}

describe(`server-side product analytics through posthog-node on ${testDb}`, () => {
  let posthog: FakePostHog;
  let env: TestEnv;

  async function start(extra: Record<string, string> = {}) {
    return startTestEnv({
      env: { POSTHOG_KEY: 'phc_test_key', POSTHOG_HOST: posthog.url, ...extra },
      inject: { adapters: { local: { textToImage: refusingLocal() } } },
    });
  }

  beforeAll(async () => {
    posthog = await startFakePostHog();
    env = await start();
  });
  afterAll(async () => {
    await env?.close();
    await posthog.close();
  });

  /**
   * The event once the server has sent it. A job's outcome is reported when its worker's handler
   * returns, which can be a moment after the job reads as ended: flush on every look, or an event
   * captured after the first flush would wait for the next timed one (10 s).
   */
  const flushedBy = (server: TestEnv, event: string, distinctId: string) =>
    eventually(
      async () => {
        await server.container.services.analytics.flush();
        return posthog.events.find((e) => e.event === event && e.distinct_id === distinctId);
      },
      10_000,
      `${event} for ${distinctId}`,
    );
  const flushed = (event: string, distinctId: string) => flushedBy(env, event, distinctId);

  it('sends sign-up, job succeeded and failed (tool and model, no prompt) and purchase completed, in order', async () => {
    const alice = await signedInClient(env, 'analytics');
    const signup = await flushed('user signed up', alice.userId);
    expect(signup.api_key).toBe('phc_test_key');
    expect(signup.path).toBe('/batch/');
    expect(signup.uuid).toBe(eventUuid(`signup:${alice.userId}`));
    expect(signup.properties).toMatchObject({ method: 'otp-email', $set: { email: alice.email } });

    const ok = await alice.call('POST', '/api/prompt', { text: 'a red fox in snow', model: 'local-aurora' });
    expect(ok.statusCode, ok.body).toBe(202);
    await waitForJob(alice, ok.json().job_id);
    const succeeded = await flushed('job succeeded', alice.userId);
    expect(succeeded.properties).toMatchObject({
      job_id: ok.json().job_id,
      tool: 'generate',
      model: 'local-aurora',
      provider: 'local',
      cost: ok.json().cost,
      refunded: false,
    });
    expect(JSON.stringify(succeeded)).not.toContain('red fox');

    const bad = await alice.call('POST', '/api/prompt', { text: `${REFUSED} please`, model: 'local-aurora' });
    await waitForJob(alice, bad.json().job_id, 'failed');
    const failed = await flushed('job failed', alice.userId);
    expect(failed.properties).toMatchObject({
      job_id: bad.json().job_id,
      tool: 'generate',
      model: 'local-aurora',
      refunded: true,
    });
    expect(JSON.stringify(failed)).not.toContain(REFUSED);

    const { session_id } = (
      await alice.call('POST', '/api/credits/purchase', { package_id: 'creator' })
    ).json();
    await alice.call('POST', `/api/dev/checkout/${session_id}/complete`);
    const purchase = await flushed('purchase completed', alice.userId);
    expect(purchase.properties).toMatchObject({
      package_id: 'creator',
      credits: 500,
      amount_cents: 2000,
      currency: 'usd',
    });

    const order = posthog.events
      .filter((e) => e.distinct_id === alice.userId)
      .sort((a, b) => a.seq - b.seq)
      .map((e) => e.event);
    expect(order).toEqual(['user signed up', 'job succeeded', 'job failed', 'purchase completed']);

    // A returning sign-in is not a sign-up.
    await signedInClient(env, 'again', { email: alice.email });
    await env.container.services.analytics.flush();
    expect(
      posthog.events.filter((e) => e.event === 'user signed up' && e.distinct_id === alice.userId),
    ).toHaveLength(1);
  });

  it('sends the prompt only when the operator allows it', async () => {
    const allowing = await start({ POSTHOG_CAPTURE_PROMPTS: 'true' });
    try {
      const bob = await signedInClient(allowing, 'prompts');
      const res = await bob.call('POST', '/api/prompt', {
        text: 'a blue heron at dawn',
        model: 'local-aurora',
      });
      await waitForJob(bob, res.json().job_id);
      const event = await flushedBy(allowing, 'job succeeded', bob.userId);
      expect(event.properties.prompt).toBe('a blue heron at dawn');
    } finally {
      await allowing.close();
    }
  });

  it('serves the analytics settings to the browser, and lets the browser send to the host (CSP)', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.json()).toEqual({
      analytics: { posthog_key: 'phc_test_key', posthog_host: posthog.url },
      referrals: { reward_credits: 100, welcome_credits: 50, monthly_cap: 20, settle_days: 14 },
    });
    const page = await env.app.inject({ method: 'GET', url: '/api/health' });
    expect(String(page.headers['content-security-policy'])).toContain(`connect-src 'self' ${posthog.url}`);
  });
});

describe(`without POSTHOG_KEY on ${testDb}`, () => {
  it('tells the browser there is no analytics and sends nothing', async () => {
    const posthog = await startFakePostHog();
    const env = await startTestEnv({ env: { POSTHOG_HOST: posthog.url } });
    try {
      expect((await env.app.inject({ method: 'GET', url: '/api/config' })).json()).toMatchObject({
        analytics: null,
      });
      await signedInClient(env, 'quiet');
      await env.container.services.analytics.flush();
      expect(posthog.requests).toEqual([]);
    } finally {
      await env.close();
      await posthog.close();
    }
  });
});
