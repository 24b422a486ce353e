import type { JobView } from '@lumina/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { balanceOf, signedInClient, waitForJob, type Client } from '../../../test/support/api.ts';

const LOCAL_MODEL = 'local-aurora';

describe(`generation on ${testDb}`, { timeout: 120_000 }, () => {
  let env: TestEnv;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    env = await startTestEnv({ env: { WELCOME_CREDITS: '20' } });
    alice = await signedInClient(env, 'alice');
    bob = await signedInClient(env, 'bob');
  });
  afterAll(() => env.close());

  it('gives new people their welcome credits once', async () => {
    expect(await balanceOf(alice)).toBe(20);
    // Signing in again does not add them twice.
    const again = await signedInClient(env, 'carol');
    expect(await balanceOf(again)).toBe(20);
  });

  it('lists the model catalogue with availability and costs, publicly', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/models' });
    expect(res.statusCode).toBe(200);
    const models = res.json().models as Array<{
      id: string;
      available: boolean;
      provider: string;
      credit_cost: number;
    }>;
    const local = models.find((m) => m.id === LOCAL_MODEL);
    expect(local).toMatchObject({ available: true, provider: 'local' });
    expect(local!.credit_cost).toBeGreaterThan(0);
    // Hosted models without a key are listed but unavailable.
    expect(models.some((m) => m.provider !== 'local' && !m.available)).toBe(true);
  });

  it('turns a prompt into a stored image with its full recipe', async () => {
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/prompt', {
      text: '  sunset over mountains  ',
      negative_text: 'people',
      model: LOCAL_MODEL,
      seed: 1234,
      aspect_ratio: '16:9',
    });
    expect(res.statusCode, res.body).toBe(202);
    const accepted = res.json();
    expect(accepted).toMatchObject({ status: 'queued', cost: expect.any(Number) });
    expect(accepted.balance).toBe(before - accepted.cost);

    const job = await waitForJob(alice, accepted.job_id);
    expect(job).toMatchObject({
      kind: 'generate',
      percent: 100,
      refunded: false,
      prompt: 'sunset over mountains',
    });
    expect(job.image_ids).toHaveLength(1);

    const list = (await alice.call('GET', `/api/images?job_id=${job.id}`)).json();
    expect(list.items).toHaveLength(1);
    const image = list.items[0];
    expect(image.id).toBe(job.image_ids[0]);
    expect(image).toMatchObject({
      prompt: 'sunset over mountains',
      negative_prompt: 'people',
      model: LOCAL_MODEL,
      provider: 'local',
      seed: 1234,
      width: 1368,
      height: 768,
      content_type: 'image/png',
      is_saved: false,
      is_own: true,
    });
    expect(image.duration_ms).toBeGreaterThanOrEqual(0);

    const original = await env.app.inject({ method: 'GET', url: image.url });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    const thumb = await env.app.inject({ method: 'GET', url: image.thumbnail_url });
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.rawPayload.length).toBeLessThan(original.rawPayload.length);
  });

  it('picks and records a random seed when none is given', async () => {
    const res = await alice.call('POST', '/api/prompt', {
      text: 'forest in fog',
      model: LOCAL_MODEL,
      seed: '',
    });
    expect(res.statusCode).toBe(202);
    const job = await waitForJob(alice, res.json().job_id);
    const image = (await alice.call('GET', '/api/images'))
      .json()
      .items.find((i: { id: string }) => i.id === job.image_ids[0]);
    expect(Number.isInteger(image.seed)).toBe(true);
  });

  it('refuses bad input with a readable detail and charges nothing', async () => {
    const before = await balanceOf(alice);
    const jobsBefore = (await alice.call('GET', '/api/progress')).json().jobs.length;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ text: '   ', model: LOCAL_MODEL }, /text: Describe the image you want/],
      [{ model: LOCAL_MODEL }, /text/],
      [{ text: 'x'.repeat(2001), model: LOCAL_MODEL }, /under 2000 characters/],
      [{ text: 'cat', model: LOCAL_MODEL, seed: -1 }, /seed/],
      [{ text: 'cat', model: LOCAL_MODEL, seed: 2 ** 32 }, /seed/],
      [{ text: 'cat', model: LOCAL_MODEL, seed: 1.5 }, /seed/],
      [{ text: 'cat', model: LOCAL_MODEL, lora_scale: 3 }, /lora_scale/],
      [{ text: 'cat', model: LOCAL_MODEL, prompt_strength: -0.1 }, /prompt_strength/],
      [{ text: 'cat', model: LOCAL_MODEL, num_images: 9 }, /num_images/],
      [{ text: 'cat', model: LOCAL_MODEL, aspect_ratio: '5:1' }, /does not offer the 5:1 aspect ratio/],
      [
        { text: 'cat', model: LOCAL_MODEL, aspect_ratio: 'wide' },
        /aspect_ratio: Use an aspect ratio like 16:9/,
      ],
      [{ text: 'cat', model: 'no-such-model' }, /Unknown model "no-such-model"/],
    ];
    for (const [body, detail] of cases) {
      const res = await alice.call('POST', '/api/prompt', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().detail).toMatch(detail);
    }
    expect(await balanceOf(alice)).toBe(before);
    expect((await alice.call('GET', '/api/progress')).json().jobs).toHaveLength(jobsBefore);
  });

  it('refuses an unavailable model without charging', async () => {
    const models = (await env.app.inject({ method: 'GET', url: '/api/models' })).json().models as Array<{
      id: string;
      available: boolean;
    }>;
    const unavailable = models.find((m) => !m.available)!;
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/prompt', { text: 'cat', model: unavailable.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/is unavailable/);
    expect(await balanceOf(alice)).toBe(before);
  });

  it('answers 402 with a clear detail when credits do not cover the job, and queues nothing', async () => {
    const poor = await signedInClient(env, 'poor');
    const ledger = env.container.services.ledger;
    await ledger.spend({ userId: poor.userId, amount: 19, reference: 'test:drain' });
    const res = await poor.call('POST', '/api/prompt', { text: 'cat', model: LOCAL_MODEL, num_images: 4 });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(res.json().detail).toMatch(/^Not enough credits: this costs \d+ credits and your balance is 1\.$/);
    expect((await poor.call('GET', '/api/progress')).json().jobs).toEqual([]);
    expect(await balanceOf(poor)).toBe(1);
  });

  it('requires a session for every product call', async () => {
    for (const [method, url] of [
      ['POST', '/api/prompt'],
      ['GET', '/api/progress'],
      ['GET', '/api/images'],
      ['GET', '/api/credits/balance'],
      ['DELETE', '/api/jobs/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const res = await env.app.inject({
        method,
        url,
        payload: method === 'POST' ? { text: 'x', model: LOCAL_MODEL } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('keeps jobs and images private to their owner', async () => {
    const res = await alice.call('POST', '/api/prompt', { text: 'private garden', model: LOCAL_MODEL });
    const job = await waitForJob(alice, res.json().job_id);
    const imageId = job.image_ids[0]!;

    expect((await bob.call('GET', '/api/progress')).json().jobs.map((j: JobView) => j.id)).not.toContain(
      job.id,
    );
    expect(
      (await bob.call('GET', '/api/images')).json().items.map((i: { id: string }) => i.id),
    ).not.toContain(imageId);
    expect((await bob.call('GET', `/api/images/models/${LOCAL_MODEL}`)).json().items).toEqual([]);
    for (const [method, url, body] of [
      ['PUT', `/api/images/${imageId}`],
      ['DELETE', `/api/images/${imageId}`],
      ['PUT', `/api/images/${imageId}/favorite`],
      ['DELETE', `/api/images/${imageId}/favorite`],
      ['POST', `/api/track/images/${imageId}`],
      ['PUT', `/api/example_images/${imageId}`, { category: 'Landscapes' }],
      ['DELETE', `/api/example_images/${imageId}`],
      ['DELETE', `/api/jobs/${job.id}`],
    ] as const) {
      const attempt = await bob.call(method, url, body);
      expect(attempt.statusCode, `${method} ${url}`).toBe(404);
    }
    // Nothing changed for the owner.
    const mine = (await alice.call('GET', '/api/images'))
      .json()
      .items.find((i: { id: string }) => i.id === imageId);
    expect(mine).toMatchObject({ is_saved: false, is_example: false, download_count: 0 });
  });

  it('cancels a queued job with a refund, and refuses to cancel a finished one', async () => {
    const workersOff = await startTestEnv({ workers: false, env: { WELCOME_CREDITS: '10' } });
    try {
      const dave = await signedInClient(workersOff, 'dave');
      const queued = await dave.call('POST', '/api/prompt', { text: 'queued forever', model: LOCAL_MODEL });
      const { job_id: jobId, cost } = queued.json();
      expect(await balanceOf(dave)).toBe(10 - cost);
      const [view] = (await dave.call('GET', '/api/progress')).json().jobs as JobView[];
      expect(view).toMatchObject({ status: 'queued', queue_position: 1 });

      const cancelled = await dave.call('DELETE', `/api/jobs/${jobId}`);
      expect(cancelled.statusCode).toBe(200);
      expect(cancelled.json()).toMatchObject({ status: 'cancelled', refunded: true });
      expect(await balanceOf(dave)).toBe(10);

      const again = await dave.call('DELETE', `/api/jobs/${jobId}`);
      expect(again.statusCode).toBe(409);
      expect(again.json().detail).toBe('This job has already been cancelled.');
      expect(await balanceOf(dave)).toBe(10);
    } finally {
      await workersOff.close();
    }

    const res = await alice.call('POST', '/api/prompt', { text: 'done quickly', model: LOCAL_MODEL });
    await waitForJob(alice, res.json().job_id);
    const late = await alice.call('DELETE', `/api/jobs/${res.json().job_id}`);
    expect(late.statusCode).toBe(409);
    expect(late.json().detail).toBe('This job has already finished.');
  });
});
