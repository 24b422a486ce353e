import { samePixels } from '../../../test/support/images.ts';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startA1111Fake, type A1111Fake } from '../../../test/fakes/a1111-server.ts';
import { startOpenAIFake, type OpenAIFake } from '../../../test/fakes/openai-server.ts';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import {
  balanceOf,
  chargesOf,
  eventually,
  jobView,
  signedInClient,
  uniquePrompt,
  waitForJob,
  type Client,
} from '../../../test/support/api.ts';
import { postForm } from '../../../test/support/multipart.ts';
import { images, jobs } from '../../db/schema/index.ts';

/**
 * AUTOMATIC1111 / Forge and OpenAI Images through the whole pipeline: HTTP → charge → queue → worker →
 * adapter (fetch / the official openai SDK) → fake vendor on 127.0.0.1 → output in our storage → image
 * rows and the ledger; and a vendor's refusal → failed, refunded exactly once.
 */

const A1111_AUTH = 'lumina:gpu-box-pass';

let a1111: A1111Fake;
let openai: OpenAIFake;
beforeAll(async () => {
  [a1111, openai] = await Promise.all([startA1111Fake({ auth: A1111_AUTH }), startOpenAIFake()]);
});
afterAll(async () => {
  await a1111?.close();
  await openai?.close();
});
afterEach(() => {
  a1111.reset();
  openai.reset();
});

describe(`AUTOMATIC1111 and OpenAI Images through the pipeline on ${testDb}`, { timeout: 90_000 }, () => {
  let env: TestEnv;
  let alice: Client;

  beforeAll(async () => {
    env = await startTestEnv({
      listen: true,
      env: {
        WELCOME_CREDITS: '1000',
        A1111_URL: a1111.url,
        A1111_AUTH,
        OPENAI_API_KEY: openai.key,
        OPENAI_BASE_URL: `${openai.url}/v1`,
        PROVIDER_POLL_INTERVAL_MS: '20',
        GENERATION_RETRY_LIMIT: '2',
        GENERATION_RETRY_DELAY_SECONDS: '0',
      },
    });
    alice = await signedInClient(env, 'alice');
  });
  afterAll(() => env?.close());

  const imageRowsOf = (jobId: string) =>
    env.container.database.db.select().from(images).where(eq(images.jobId, jobId));

  async function storedBytes(client: Client, imageId: string): Promise<Buffer> {
    const list = (await client.call('GET', '/api/images')).json() as {
      items: Array<{ id: string; url: string }>;
    };
    const image = list.items.find((i) => i.id === imageId)!;
    const res = await env.app.inject({ method: 'GET', url: image.url });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  }

  async function upload(client: Client, width: number, height: number): Promise<string> {
    const photo = await sharp({ create: { width, height, channels: 3, background: '#3060a0' } })
      .png()
      .toBuffer();
    const res = await postForm(env, client, '/api/images/upload', {
      file: { filename: 'p.png', bytes: photo },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  it('the models list both vendors’ models as available', async () => {
    const res = await alice.call('GET', '/api/models');
    expect(res.statusCode).toBe(200);
    const text = res.body;
    for (const id of ['sdxl-a1111', 'gpt-image-1']) expect(text).toContain(`"${id}"`);
  });

  it('AUTOMATIC1111: generate → job succeeds, the server’s image stored, charged once', async () => {
    const text = uniquePrompt('a harbour at night');
    a1111.scenario({ steps: 5, stepMs: 30 });
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/prompt', { text, model: 'sdxl-a1111', aspect_ratio: '1:1' });
    expect(res.statusCode, res.body).toBe(202);
    const { job_id: jobId, cost } = res.json() as { job_id: string; cost: number };
    const job = await waitForJob(alice, jobId);

    expect(job.image_ids).toHaveLength(1);
    const [call] = a1111.calls;
    expect(call).toMatchObject({
      path: '/sdapi/v1/txt2img',
      body: {
        prompt: text,
        width: 1024,
        height: 1024,
        override_settings: { sd_model_checkpoint: 'sd_xl_base_1.0.safetensors' },
      },
    });
    const [row] = await env.container.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row!.providerRequestId).toBe(call!.taskId);
    const [image] = await imageRowsOf(jobId);
    expect(image).toMatchObject({ provider: 'a1111', width: 1024, height: 1024 });
    expect(
      await samePixels(
        await storedBytes(alice, job.image_ids[0]!),
        Buffer.from(call!.answered[0]!, 'base64'),
      ),
    ).toBe(true);
    expect(await balanceOf(alice)).toBe(before - cost);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
  });

  it('AUTOMATIC1111: upscale tool → twice the size, charged once', async () => {
    const imageId = await upload(alice, 40, 30);
    const res = await alice.call('POST', '/api/upscale/', {
      image_id: imageId,
      factor: 2,
      model: 'a1111-esrgan',
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().job_id as string;
    const job = await waitForJob(alice, jobId);
    expect(job.kind).toBe('upscale');
    expect(a1111.calls[0]).toMatchObject({
      path: '/sdapi/v1/extra-single-image',
      body: { upscaler_1: 'R-ESRGAN 4x+', upscaling_resize: 2 },
    });
    const [image] = await imageRowsOf(jobId);
    expect(image).toMatchObject({ kind: 'upscale', provider: 'a1111', width: 80, height: 60 });
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
  });

  it('AUTOMATIC1111: a refusal fails the job at once with the server’s reason, refunded exactly once', async () => {
    a1111.defaultScenario = { outcome: 'refused' };
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/prompt', {
      text: uniquePrompt('refused'),
      model: 'sdxl-a1111',
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().job_id as string;
    const job = await waitForJob(alice, jobId, 'failed');
    expect(job.error).toBe(
      'Your image server refused this request: Sampler not found. Your credits were refunded.',
    );
    expect(job.refunded).toBe(true);
    expect(await balanceOf(alice)).toBe(before);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
    expect(a1111.calls).toHaveLength(1); // a refusal is not retried
    expect(await imageRowsOf(jobId)).toEqual([]);
  });

  it('AUTOMATIC1111: cancelling a running job interrupts the server; it had started, so no refund', async () => {
    a1111.scenario({ steps: 1000, stepMs: 20 });
    const res = await alice.call('POST', '/api/prompt', {
      text: uniquePrompt('cancel me'),
      model: 'sdxl-a1111',
    });
    const jobId = res.json().job_id as string;
    await eventually(async () => ((a1111.calls[0]?.step ?? 0) >= 2 ? true : undefined), 20_000);
    await eventually(async () => ((await jobView(alice, jobId))?.status === 'running' ? true : undefined));
    const cancelled = await alice.call('DELETE', `/api/jobs/${jobId}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', refunded: false });
    await eventually(async () => (a1111.calls[0]!.ended ? true : undefined), 10_000);
    expect(a1111.interrupts).toBeGreaterThanOrEqual(1);
    expect(a1111.calls[0]!.interrupted).toBe(true);
    expect(a1111.calls[0]!.step).toBeLessThan(1000);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    expect(await imageRowsOf(jobId)).toEqual([]);
    expect(a1111.calls).toHaveLength(1);
  });

  it('AUTOMATIC1111: a retry after the server dropped the job shows no frame of the failed try', async () => {
    // Slow steps: the first try's frames must be on screen long enough for the job view to show one.
    a1111.scenario({ steps: 100, stepMs: 60, outcome: 'drop' });
    a1111.scenario({ steps: 1000, stepMs: 20, previews: false });
    const res = await alice.call('POST', '/api/prompt', {
      text: uniquePrompt('retried'),
      model: 'sdxl-a1111',
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().job_id as string;
    // The first try sends live frames, which the job view shows…
    await eventually(async () => ((await jobView(alice, jobId))?.preview_url ? true : undefined), 20_000);
    // …then the server drops it, and the retry (which sends none) must not show the old frame.
    await eventually(async () => ((a1111.calls[1]?.step ?? 0) >= 3 ? true : undefined), 20_000);
    const during = await jobView(alice, jobId);
    expect(during).toMatchObject({ status: 'running', preview_url: null });
    expect((await alice.call('GET', `/api/jobs/${jobId}/preview`)).statusCode).toBe(404);
    expect((await alice.call('DELETE', `/api/jobs/${jobId}`)).statusCode).toBe(200);
    await eventually(async () => (a1111.calls[1]!.ended ? true : undefined), 10_000);
  });

  it('OpenAI: generate → job succeeds, the b64_json image stored, charged once', async () => {
    const text = uniquePrompt('a poster that says HELLO');
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/prompt', { text, model: 'gpt-image-1', aspect_ratio: '3:2' });
    expect(res.statusCode, res.body).toBe(202);
    const { job_id: jobId, cost } = res.json() as { job_id: string; cost: number };
    const job = await waitForJob(alice, jobId);
    const [sent] = openai.requests;
    expect(sent).toMatchObject({
      endpoint: 'generations',
      fields: { model: 'gpt-image-1', prompt: text, size: '1536x1024' },
    });
    const [image] = await imageRowsOf(jobId);
    expect(image).toMatchObject({ provider: 'openai', width: 1536, height: 1024 });
    expect(await samePixels(await storedBytes(alice, job.image_ids[0]!), sent!.images[0]!)).toBe(true);
    expect(await balanceOf(alice)).toBe(before - cost);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
  });

  it('OpenAI: edit tool → multipart edit, result stored, charged once', async () => {
    const imageId = await upload(alice, 60, 40);
    const res = await alice.call('POST', '/api/generate/falai/edit_image', {
      image_id: imageId,
      prompt: 'make it snow',
      model: 'openai-gpt-image-edit',
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().job_id as string;
    await waitForJob(alice, jobId);
    const [sent] = openai.requests;
    expect(sent).toMatchObject({ endpoint: 'edits', fields: { prompt: 'make it snow', size: '1536x1024' } });
    expect(sent!.files.map((f) => f.field)).toEqual(['image']);
    const [image] = await imageRowsOf(jobId);
    expect(image).toMatchObject({ kind: 'edit', provider: 'openai', width: 1536, height: 1024 });
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
  });

  it('OpenAI: moderation_blocked fails the job with a readable reason, refunded exactly once', async () => {
    openai.defaultOutcome = 'moderation';
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/prompt', {
      text: uniquePrompt('blocked'),
      model: 'gpt-image-1',
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().job_id as string;
    const job = await waitForJob(alice, jobId, 'failed');
    expect(job.error).toBe(
      'OpenAI’s safety system refused this request. Try describing it differently. Your credits were refunded.',
    );
    expect(job.refunded).toBe(true);
    expect(await balanceOf(alice)).toBe(before);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
    expect(openai.requests).toHaveLength(1);
  });

  it('OpenAI: a rate limit that persists fails after the retries, refunded exactly once', async () => {
    openai.defaultOutcome = 'rate-limit';
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/prompt', { text: uniquePrompt('busy'), model: 'gpt-image-1' });
    const jobId = res.json().job_id as string;
    const job = await waitForJob(alice, jobId, 'failed');
    expect(job.refunded).toBe(true);
    expect(await balanceOf(alice)).toBe(before);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
    expect(openai.requests).toHaveLength(3);
  });
});
