import { samePixels } from '../../../test/support/images.ts';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { falRequestsFor, startFalFake, type FalFake } from '../../../test/fakes/fal-server.ts';
import {
  predictionsFor,
  startReplicateFake,
  type ReplicateFake,
} from '../../../test/fakes/replicate-server.ts';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import {
  balanceOf,
  chargesOf,
  eventually,
  jobView,
  prompt,
  signedInClient,
  uniquePrompt,
  waitForJob,
  type Client,
} from '../../../test/support/api.ts';
import { images, jobs } from '../../db/schema/index.ts';
import { postForm } from '../../../test/support/multipart.ts';
import sharp from 'sharp';

/**
 * fal.ai and Replicate through the whole pipeline: HTTP → charge → queue → worker → official SDK →
 * fake vendor on 127.0.0.1 → output copied into our storage → image rows, and every way it can end
 * (vendor failure, refusal, cancel, webhooks that race, replay or lie).
 */

const FAL_MODEL = 'flux-schnell';
const REPLICATE_MODEL = 'flux-schnell-replicate';

function providerEnv(fal: FalFake, replicate: ReplicateFake, extra: Record<string, string>) {
  return {
    WELCOME_CREDITS: '1000',
    FAL_KEY: fal.key,
    FAL_BASE_URL: fal.url,
    FAL_WEBHOOK_JWKS_URL: fal.jwksUrl,
    REPLICATE_API_TOKEN: replicate.token,
    REPLICATE_BASE_URL: `${replicate.url}/v1`,
    REPLICATE_WEBHOOK_SECRET: replicate.webhookSecret,
    // Retries at once, and two of them, so "fails after retries" takes milliseconds.
    GENERATION_RETRY_LIMIT: '2',
    GENERATION_RETRY_DELAY_SECONDS: '0',
    ...extra,
  };
}

async function imageRowsOf(env: TestEnv, jobId: string) {
  return env.container.database.db.select().from(images).where(eq(images.jobId, jobId));
}

async function jobRow(env: TestEnv, jobId: string) {
  const [row] = await env.container.database.db.select().from(jobs).where(eq(jobs.id, jobId));
  return row!;
}

let fal: FalFake;
let replicate: ReplicateFake;
beforeAll(async () => {
  [fal, replicate] = await Promise.all([startFalFake(), startReplicateFake()]);
});
afterAll(async () => {
  await fal?.close();
  await replicate?.close();
});
afterEach(() => {
  fal.reset();
  replicate.reset();
});

describe(`fal and Replicate through the pipeline on ${testDb}`, { timeout: 90_000 }, () => {
  let env: TestEnv;
  let alice: Client;

  beforeAll(async () => {
    env = await startTestEnv({
      listen: true,
      env: providerEnv(fal, replicate, { PROVIDER_POLL_INTERVAL_MS: '40' }),
    });
    alice = await signedInClient(env, 'alice');
  });
  afterAll(() => env?.close());

  it('fal: queued → running with queue position and log progress → succeeded, output copied into our storage', async () => {
    const text = uniquePrompt('a lighthouse at dusk');
    // Long phases, so a test that looks every 50 ms sees each even when a loaded machine delays it.
    fal.scenario({ queuedPolls: 30, runningPolls: 30 });
    const before = await balanceOf(alice);
    const { job_id: jobId, cost } = await prompt(alice, { text, model: FAL_MODEL });
    expect(await balanceOf(alice)).toBe(before - cost);

    const seen: Array<{
      status: string;
      queue_position: number | null;
      percent: number | null;
      message: string | null;
    }> = [];
    const job = await eventually(
      async () => {
        const view = await jobView(alice, jobId);
        if (view) seen.push(view);
        return view?.status === 'succeeded' ? view : undefined;
      },
      30_000,
      'the fal job to succeed',
    );
    // Waiting in fal's queue: our job runs, and shows fal's queue position.
    expect(seen.some((v) => v.status === 'running' && (v.queue_position ?? 0) > 0)).toBe(true);
    // Then fal's log lines ("step i/N") become the message and the percentage.
    const logged = seen.filter((v) => v.status === 'running' && /^step \d+\/30$/.test(v.message ?? ''));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.some((v) => (v.percent ?? 0) > 0 && (v.percent ?? 0) < 100)).toBe(true);
    expect(job).toMatchObject({ percent: 100, refunded: false, error: null, queue_position: null });

    const [request] = falRequestsFor(fal, text);
    expect(falRequestsFor(fal, text)).toHaveLength(1);
    expect((await jobRow(env, jobId)).providerRequestId).toBe(request!.requestId);

    const list = (await alice.call('GET', '/api/images')).json();
    const image = list.items.find((i: { id: string }) => i.id === job.image_ids[0]);
    expect(image).toMatchObject({ provider: 'fal', model: FAL_MODEL, prompt: text });
    // Our URL, never fal's CDN: vendor URLs expire.
    expect(image.url).not.toContain(fal.url);
    expect(image.url.startsWith('/') || image.url.startsWith(env.baseUrl!)).toBe(true);
    const original = await env.app.inject({ method: 'GET', url: image.url });
    expect(original.statusCode).toBe(200);
    expect(await samePixels(original.rawPayload, await fal.imageBytes(request!.requestId))).toBe(true);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
  });

  it('fal: a model error that persists fails the job after its retries with a readable reason, refunded once', async () => {
    const text = uniquePrompt('a crashing model');
    fal.defaultScenario = { queuedPolls: 0, runningPolls: 0, outcome: 'model-error' };
    const before = await balanceOf(alice);
    const { job_id: jobId } = await prompt(alice, { text, model: FAL_MODEL });
    const job = await waitForJob(alice, jobId, 'failed');

    expect(job.error).toMatch(/could not finish this job after 3 tries\. Your credits were refunded\.$/);
    expect(job.refunded).toBe(true);
    expect(await balanceOf(alice)).toBe(before);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
    // One try per attempt: the failed request is not re-read forever, a fresh one is submitted.
    expect(falRequestsFor(fal, text)).toHaveLength(3);
    expect(await imageRowsOf(env, jobId)).toEqual([]);
  });

  it('fal: a content-policy refusal fails at once with the provider’s reason, refunded', async () => {
    const text = uniquePrompt('something the checker flags');
    fal.scenario({ queuedPolls: 0, runningPolls: 0, outcome: 'content-policy' });
    const before = await balanceOf(alice);
    const { job_id: jobId } = await prompt(alice, { text, model: FAL_MODEL });
    const job = await waitForJob(alice, jobId, 'failed');

    expect(job.error).toBe(
      'The provider refused this prompt: The prompt was flagged by the content checker. Your credits were refunded.',
    );
    expect(job.refunded).toBe(true);
    expect(await balanceOf(alice)).toBe(before);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
    // Not retried: a refusal will not change on a second try.
    expect(falRequestsFor(fal, text)).toHaveLength(1);
  });

  it('fal: a transient 500 (submit and result) then OK succeeds, charged once, same request resumed', async () => {
    const text = uniquePrompt('a flaky vendor');
    fal.scenario({ queuedPolls: 0, runningPolls: 1, submitErrors: 1, resultErrors: 1 });
    const before = await balanceOf(alice);
    const { job_id: jobId, cost } = await prompt(alice, { text, model: FAL_MODEL });
    const job = await waitForJob(alice, jobId);

    expect(job.image_ids).toHaveLength(1);
    expect(await balanceOf(alice)).toBe(before - cost);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    // The result error came after fal finished: the retry read the same request again.
    expect(falRequestsFor(fal, text)).toHaveLength(1);
    expect(falRequestsFor(fal, text)[0]!.resultCalls).toBe(2);
    expect(await imageRowsOf(env, jobId)).toHaveLength(1);
  });

  it('fal: cancelling a job still IN_QUEUE at fal cancels it there and refunds', async () => {
    const text = uniquePrompt('a long queue');
    fal.scenario({ queuedPolls: 100_000 });
    const before = await balanceOf(alice);
    const { job_id: jobId } = await prompt(alice, { text, model: FAL_MODEL });
    // Submitted, recorded, and waiting in fal's queue.
    await eventually(
      async () => {
        const [request] = falRequestsFor(fal, text);
        const view = await jobView(alice, jobId);
        return request && request.statusPolls > 0 && view?.queue_position ? view : undefined;
      },
      20_000,
      'the request to wait in fal’s queue',
    );

    const res = await alice.call('DELETE', `/api/jobs/${jobId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'cancelled', refunded: true });
    const [request] = falRequestsFor(fal, text);
    expect(request!.cancelled).toBe(true);
    expect(
      fal.received.some((r) => r.method === 'PUT' && r.path.endsWith(`/${request!.requestId}/cancel`)),
    ).toBe(true);
    expect(await balanceOf(alice)).toBe(before);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
    // The worker notices and stops; nothing arrives later.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await jobView(alice, jobId))?.status).toBe('cancelled');
    expect(await imageRowsOf(env, jobId)).toEqual([]);
  });

  it('Replicate: a prediction runs to success, output copied into our storage', async () => {
    const text = uniquePrompt('a red fox in snow');
    const before = await balanceOf(alice);
    const { job_id: jobId, cost } = await prompt(alice, { text, model: REPLICATE_MODEL, seed: 77 });
    const job = await waitForJob(alice, jobId);

    const [prediction] = predictionsFor(replicate, text);
    expect(predictionsFor(replicate, text)).toHaveLength(1);
    expect(prediction!.webhook).toBe(`${env.baseUrl}/api/webhooks/replicate`);
    const image = (await alice.call('GET', '/api/images'))
      .json()
      .items.find((i: { id: string }) => i.id === job.image_ids[0]);
    expect(image).toMatchObject({ provider: 'replicate', model: REPLICATE_MODEL, seed: 77 });
    expect(image.url).not.toContain(replicate.url);
    const original = await env.app.inject({ method: 'GET', url: image.url });
    expect(await samePixels(original.rawPayload, await replicate.imageBytes(prediction!.id))).toBe(true);
    expect(await balanceOf(alice)).toBe(before - cost);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
  });

  it('Replicate: a safety-checker failure fails at once; a failure that persists fails after retries; both refunded', async () => {
    const refused = uniquePrompt('a quiet beach the checker flags');
    replicate.scenario({ startingPolls: 0, processingPolls: 0, outcome: 'nsfw' });
    const before = await balanceOf(alice);
    const first = await prompt(alice, { text: refused, model: REPLICATE_MODEL });
    const refusedJob = await waitForJob(alice, first.job_id, 'failed');
    expect(refusedJob.error).toMatch(/^The provider refused this prompt: NSFW content detected\./);
    expect(predictionsFor(replicate, refused)).toHaveLength(1);

    const broken = uniquePrompt('out of memory');
    replicate.defaultScenario = { startingPolls: 0, processingPolls: 0, outcome: 'failed' };
    const second = await prompt(alice, { text: broken, model: REPLICATE_MODEL });
    const brokenJob = await waitForJob(alice, second.job_id, 'failed');
    expect(brokenJob.error).toMatch(/after 3 tries\. Your credits were refunded\.$/);
    expect(predictionsFor(replicate, broken)).toHaveLength(3);

    expect(await balanceOf(alice)).toBe(before);
    for (const id of [first.job_id, second.job_id]) {
      expect(await chargesOf(env, alice, id)).toEqual({ spends: 1, refunds: 1 });
    }
  });

  it('a fal webhook racing the poller: the job finishes exactly once', async () => {
    const text = uniquePrompt('a race');
    fal.scenario({ queuedPolls: 0, runningPolls: 3 });
    const { job_id: jobId } = await prompt(alice, { text, model: FAL_MODEL });
    const [request] = await eventually(async () => {
      const found = falRequestsFor(fal, text);
      return found.length ? found : undefined;
    });
    expect(request!.webhookUrl).toBe(`${env.baseUrl}/api/webhooks/fal`);
    // Deliver (signed) webhooks as fast as we can while the poller works; the ones sent once fal is
    // done queue a sync that races the poller's own completion.
    const statuses: number[] = [];
    while ((await jobView(alice, jobId))?.status !== 'succeeded') {
      statuses.push(await fal.sendWebhook(request!.requestId));
    }
    for (let i = 0; i < 3; i++) statuses.push(await fal.sendWebhook(request!.requestId));
    expect(statuses.every((s) => s === 200)).toBe(true);
    await new Promise((r) => setTimeout(r, 500));

    expect(await imageRowsOf(env, jobId)).toHaveLength(1);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    expect(await jobView(alice, jobId)).toMatchObject({ status: 'succeeded', refunded: false });
    expect(falRequestsFor(fal, text)).toHaveLength(1);
  });
});

describe(`provider webhooks on ${testDb} (polling too slow to matter)`, { timeout: 90_000 }, () => {
  let env: TestEnv;
  let alice: Client;

  beforeAll(async () => {
    env = await startTestEnv({
      listen: true,
      // The poller looks once, then sleeps a minute: only a webhook can finish a job in time.
      env: providerEnv(fal, replicate, { PROVIDER_POLL_INTERVAL_MS: '60000' }),
    });
    alice = await signedInClient(env, 'alice');
  });
  afterAll(() => env?.close());

  const post = (path: string, delivery: { body: string; headers: Record<string, string> }) =>
    fetch(`${env.baseUrl}${path}`, { method: 'POST', headers: delivery.headers, body: delivery.body });

  /** A fal job whose request fal has just finished, after the poller's single look. */
  async function falJobDoneAtFal(text: string) {
    fal.scenario({ queuedPolls: 0, runningPolls: 1 });
    const { job_id: jobId } = await prompt(alice, { text, model: FAL_MODEL });
    const request = await eventually(async () => {
      const [found] = falRequestsFor(fal, text);
      return found && found.statusPolls > 0 ? found : undefined;
    });
    expect((await jobRow(env, jobId)).providerRequestId).toBe(request.requestId);
    request.scenario.runningPolls = 0; // fal finishes now; the poller will not look for a minute.
    return { jobId, request };
  }

  async function replicateJobDoneAtReplicate(text: string) {
    replicate.scenario({ startingPolls: 1, processingPolls: 1 });
    const { job_id: jobId } = await prompt(alice, { text, model: REPLICATE_MODEL });
    const prediction = await eventually(async () => {
      const [found] = predictionsFor(replicate, text);
      return found && found.polls > 0 ? found : undefined;
    });
    prediction.scenario = { startingPolls: 0, processingPolls: 0 };
    return { jobId, prediction };
  }

  it('fal: a validly signed webhook completes the job long before the next poll', async () => {
    const started = Date.now();
    const { jobId, request } = await falJobDoneAtFal(uniquePrompt('webhook wins'));
    expect(await fal.sendWebhook(request.requestId)).toBe(200);
    const job = await waitForJob(alice, jobId, 'succeeded', 20_000);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(job.image_ids).toHaveLength(1);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    const original = await env.app.inject({ method: 'GET', url: await imageUrl(alice, job.image_ids[0]!) });
    expect(await samePixels(original.rawPayload, await fal.imageBytes(request.requestId))).toBe(true);
  });

  it('fal: an image tool job (upscale) is completed by its webhook too, charged once', async () => {
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3060a0' } })
      .png()
      .toBuffer();
    const upload = await postForm(env, alice, '/api/images/upload', {
      file: { filename: 'p.png', bytes: photo },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    fal.scenario({ queuedPolls: 0, runningPolls: 1 });
    const res = await alice.call('POST', '/api/upscale/', {
      image_id: upload.json().id,
      factor: 2,
      model: 'fal-esrgan',
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().job_id as string;
    const request = await eventually(async () => {
      const found = [...fal.requests.values()].find((r) => r.endpoint === 'fal-ai/esrgan');
      return found && found.statusPolls > 0 ? found : undefined;
    });
    expect(request.webhookUrl).toBe(`${env.baseUrl}/api/webhooks/fal`);
    request.scenario.runningPolls = 0; // fal finishes now; only the webhook can finish the job in time.
    expect(await fal.sendWebhook(request.requestId)).toBe(200);
    const job = await waitForJob(alice, jobId, 'succeeded', 20_000);
    expect(job.kind).toBe('upscale');
    const [row] = await imageRowsOf(env, jobId);
    expect(row).toMatchObject({ kind: 'upscale', width: 80, height: 60, provider: 'fal' });
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
  });

  it('fal: invalid, tampered and expired signatures are refused with 400 and change nothing', async () => {
    const { jobId, request } = await falJobDoneAtFal(uniquePrompt('forged webhook'));
    const good = await fal.signWebhook(request.requestId);
    const otherKey = generateKeyPairSync('ed25519').privateKey;
    const forgeries = [
      { ...good, body: good.body.replace('"OK"', '"OK" ') }, // tampered body
      await fal.signWebhook(request.requestId, { key: otherKey }), // someone else's key
      await fal.signWebhook(request.requestId, { timestamp: Math.floor(Date.now() / 1000) - 3600 }), // expired
      { ...good, headers: { ...good.headers, 'x-fal-webhook-signature': 'ab'.repeat(64) } }, // garbage
      { ...good, headers: { 'content-type': 'application/json' } }, // unsigned
    ];
    for (const forged of forgeries) {
      const res = await post('/api/webhooks/fal', forged);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe('The webhook signature is not valid.');
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect((await jobView(alice, jobId))?.status).toBe('running');
    expect(await imageRowsOf(env, jobId)).toEqual([]);
    expect(request.resultCalls).toBe(0);

    // The genuine one still works afterwards.
    expect((await post('/api/webhooks/fal', good)).status).toBe(200);
    await waitForJob(alice, jobId, 'succeeded', 20_000);
  });

  it('fal: the same webhook delivered 5 times finishes the job exactly once', async () => {
    const { jobId, request } = await falJobDoneAtFal(uniquePrompt('replayed webhook'));
    const delivery = await fal.signWebhook(request.requestId);
    const statuses = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/webhooks/fal', delivery).then((r) => r.status)),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    await waitForJob(alice, jobId, 'succeeded', 20_000);
    // Late replays, after the job finished.
    for (let i = 0; i < 5; i++) expect((await post('/api/webhooks/fal', delivery)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));

    expect(await imageRowsOf(env, jobId)).toHaveLength(1);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    expect(await jobView(alice, jobId)).toMatchObject({ status: 'succeeded', refunded: false });
  });

  it('Replicate: a signed webhook completes the job; forged ones are refused; replays change nothing', async () => {
    const { jobId, prediction } = await replicateJobDoneAtReplicate(uniquePrompt('replicate webhook'));
    const good = replicate.signWebhook(prediction.id);
    const forgeries = [
      { ...good, body: good.body.replace('"succeeded"', '"succeeded" ') },
      replicate.signWebhook(prediction.id, { secret: `whsec_${randomBytes(32).toString('base64')}` }),
      replicate.signWebhook(prediction.id, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
      { ...good, headers: { 'content-type': 'application/json' } },
    ];
    for (const forged of forgeries) {
      expect((await post('/api/webhooks/replicate', forged)).status).toBe(400);
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect((await jobView(alice, jobId))?.status).toBe('running');

    const statuses = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/webhooks/replicate', good).then((r) => r.status)),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const job = await waitForJob(alice, jobId, 'succeeded', 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(job.image_ids).toHaveLength(1);
    expect(await imageRowsOf(env, jobId)).toHaveLength(1);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    expect(predictionsFor(replicate, prediction.input.prompt as string)).toHaveLength(1);
  });

  it('a webhook whose request turns out failed starts nothing new: the sync cancels what the adapter resubmitted', async () => {
    const text = uniquePrompt('lying webhook');
    const { jobId, request } = await falJobDoneAtFal(text);
    const delivery = await fal.signWebhook(request.requestId); // says OK…
    request.scenario.outcome = 'model-error'; // …but the truth, fetched again, is a failure.
    expect((await post('/api/webhooks/fal', delivery)).status).toBe(200);
    await eventually(async () => (falRequestsFor(fal, text)[1]?.cancelled ? true : undefined), 10_000);
    expect(falRequestsFor(fal, text)).toHaveLength(2);
    // The job is untouched: still its worker's to retry, charged once, not refunded.
    expect((await jobView(alice, jobId))?.status).toBe('running');
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    expect((await jobRow(env, jobId)).providerRequestId).toBe(request.requestId);
    expect((await alice.call('DELETE', `/api/jobs/${jobId}`)).statusCode).toBe(200);
  });

  it('ignores a webhook for a request it does not know', async () => {
    const { jobId, request } = await falJobDoneAtFal(uniquePrompt('stranger'));
    const stranger = await fal.signWebhook(request.requestId);
    // Same signature scheme, but about another account's request: verified, then nothing to do.
    const unknown = JSON.parse(stranger.body) as Record<string, unknown>;
    expect(unknown.request_id).toBe(request.requestId);
    await env.container.database.db
      .update(jobs)
      .set({ providerRequestId: 'someone-elses-request' })
      .where(and(eq(jobs.id, jobId)));
    expect((await post('/api/webhooks/fal', stranger)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect((await jobView(alice, jobId))?.status).toBe('running');
    // Clean up: cancel it (refunded only if fal had not started; it had).
    expect((await alice.call('DELETE', `/api/jobs/${jobId}`)).statusCode).toBe(200);
  });
});

async function imageUrl(client: Client, imageId: string): Promise<string> {
  const res = await client.call('GET', `/api/images?limit=50`);
  const item = (res.json().items as Array<{ id: string; url: string }>).find((i) => i.id === imageId);
  if (!item) throw new Error(`image ${imageId} not listed`);
  return item.url;
}
