import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { startA1111Fake } from '../../../../test/fakes/a1111-server.ts';
import { fakePng } from '../../../../test/fakes/png.ts';
import { runContext, runError, useFakeVendor, waitFor } from '../../../../test/support/vendor-adapters.ts';
import type { TextToImageRequest } from '../text-to-image.ts';
import { A1111ImageTools } from './a1111.image-tools.ts';
import { A1111TextToImage } from './a1111.text-to-image.ts';

const fake = useFakeVendor(() => startA1111Fake());

const request = (overrides: Partial<TextToImageRequest> = {}): TextToImageRequest => ({
  providerModel: 'sd_xl_base_1.0.safetensors',
  prompt: 'a lighthouse at dusk',
  negativePrompt: 'blurry',
  seed: 77,
  width: 64,
  height: 48,
  numImages: 1,
  ...overrides,
});

const adapter = (
  options: {
    auth?: string;
    timeoutMs?: number;
    url?: string;
    log?: { warn(o: object, m: string): void };
  } = {},
) =>
  new A1111TextToImage({
    baseUrl: fake.url,
    auth: options.auth,
    pollIntervalMs: 5,
    timeoutMs: options.timeoutMs,
    fetch: fake.fetch,
    log: options.log,
  });

/**
 * Someone else's txt2img (the server's own UI, say), once it holds the GPU. Its answer comes wrapped:
 * an async function returning the bare promise would wait for it.
 */
async function anotherClientsTask(): Promise<{ answer: Promise<Response> }> {
  const answer = fetch(`${fake.url}/sdapi/v1/txt2img`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'someone else', width: 16, height: 16, force_task_id: 'task(other)' }),
  });
  await waitFor(() => (fake.calls[0]?.step ?? 0) >= 1);
  return { answer };
}

const tools = () => new A1111ImageTools({ baseUrl: fake.url, pollIntervalMs: 5, fetch: fake.fetch });

describe('AUTOMATIC1111 adapter against a fake A1111 server', () => {
  it('txt2img: records the task id, reports progress with live previews, returns the images and the seed', async () => {
    fake.scenario({ steps: 6, stepMs: 25 });
    const { ctx, events, progress, submitted } = runContext();
    const result = await adapter().run(request(), ctx);

    const [call] = fake.calls;
    expect(call!.path).toBe('/sdapi/v1/txt2img');
    expect(call!.body).toMatchObject({
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'blurry',
      seed: 77,
      width: 64,
      height: 48,
      batch_size: 1,
      override_settings: { sd_model_checkpoint: 'sd_xl_base_1.0.safetensors' },
      override_settings_restore_afterwards: true,
      send_images: true,
    });
    // The id recorded before blocking is the task id the server was given.
    expect(submitted).toEqual([call!.taskId]);
    expect(events[0]).toBe('submitted');
    expect(result.requestId).toBe(call!.taskId);
    expect(fake.progressPolls).toBeGreaterThan(0);
    const running = progress.filter((p) => p.status === 'running');
    expect(running.some((p) => (p.percent ?? 0) > 0 && (p.percent ?? 0) < 100)).toBe(true);
    expect(running.some((p) => /^step \d+\/6$/.test(p.message ?? ''))).toBe(true);
    const previews = progress.flatMap((p) => (p.preview ? [p.preview] : []));
    expect(previews.length).toBeGreaterThan(0);
    expect(previews[0]!.contentType).toBe('image/png');
    expect((await sharp(previews[0]!.bytes).metadata()).width).toBe(16);

    expect(result.seed).toBe(77);
    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ contentType: 'image/png', width: 64, height: 48 });
    expect(result.images[0]!.bytes.equals(await fakePng(64, 48, 1))).toBe(true);
  });

  it('several images: the grid A1111 puts first is left out (index_of_first_image)', async () => {
    const { ctx } = runContext();
    const result = await adapter().run(request({ numImages: 3, seed: 5 }), ctx);
    expect(fake.calls[0]!.answered).toHaveLength(4);
    expect(result.images).toHaveLength(3);
    for (const [i, image] of result.images.entries()) {
      expect(image.bytes.equals(await fakePng(64, 48, i + 1))).toBe(true);
    }
  });

  it('a LoRA goes into the prompt as <lora:name:scale>', async () => {
    const { ctx } = runContext();
    await adapter().run(
      request({ lora: { url: 'https://files.example/loras/my%20style.safetensors', scale: 0.8 } }),
      ctx,
    );
    expect(fake.calls[0]!.body.prompt).toBe('a lighthouse at dusk <lora:my style:0.8>');
  });

  it('a server error (500, CUDA out of memory) is transient', async () => {
    fake.scenario({ outcome: 'error' });
    const error = await runError(adapter().run(request(), runContext().ctx));
    expect(error.kind).toBe('transient');
    expect(error.message).toContain('CUDA out of memory');
  });

  it('a refusal of the request itself (404 Sampler not found) is rejected with the server’s reason', async () => {
    fake.scenario({ outcome: 'refused' });
    const error = await runError(adapter().run(request(), runContext().ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe('Your image server refused this request: Sampler not found.');
  });

  it('cancelling interrupts the server, whose blocked request returns early; the run ends cancelled', async () => {
    fake.scenario({ steps: 400, stepMs: 10 });
    const abort = new AbortController();
    const run = adapter().run(request(), runContext({ signal: abort.signal }).ctx);
    await waitFor(() => (fake.calls[0]?.step ?? 0) >= 2);
    abort.abort();
    const error = await runError(run);
    expect(error.kind).toBe('cancelled');
    expect(fake.interrupts).toBe(1);
    await waitFor(() => fake.calls[0]!.ended);
    expect(fake.calls[0]!.interrupted).toBe(true);
    expect(fake.calls[0]!.step).toBeLessThan(400);
  });

  it('cancelling while ours waits behind another client’s task leaves that task alone, and stops ours once it starts', async () => {
    // Long enough (2 s) that ours is surely queued behind it, even on a loaded machine; ours as long.
    fake.scenario({ steps: 200, stepMs: 10 });
    fake.scenario({ steps: 200, stepMs: 10 });
    const foreign = (await anotherClientsTask()).answer;
    const abort = new AbortController();
    const run = adapter().run(request(), runContext({ signal: abort.signal }).ctx);
    await waitFor(() => fake.calls[1]?.queued === true);
    abort.abort();
    expect((await runError(run)).kind).toBe('cancelled');
    expect(fake.interrupts).toBe(0);
    expect((await foreign).status).toBe(200);
    expect(fake.calls[0]).toMatchObject({ step: 200, interrupted: false });
    // A1111 still runs a request whose client has gone: ours is interrupted as soon as it starts.
    await waitFor(() => fake.calls[1]!.ended);
    expect(fake.calls[1]).toMatchObject({ interrupted: true });
    expect(fake.calls[1]!.step).toBeLessThan(200);
    expect(fake.interrupts).toBe(1);
  });

  it('cancel(taskId) stops a run of this process and says it had started', async () => {
    fake.scenario({ steps: 400, stepMs: 10 });
    const provider = adapter();
    const { ctx, submitted } = runContext();
    const run = provider.run(request(), ctx);
    await waitFor(() => (fake.calls[0]?.step ?? 0) >= 1);
    expect(await provider.cancel(submitted[0]!)).toBe(false);
    expect((await runError(run)).kind).toBe('cancelled');
    expect(fake.interrupts).toBe(1);
  });

  it('past the deadline the server is interrupted and the run times out', async () => {
    fake.scenario({ steps: 400, stepMs: 10 });
    const error = await runError(adapter({ timeoutMs: 150 }).run(request(), runContext().ctx));
    expect(error.kind).toBe('timeout');
    expect(fake.interrupts).toBe(1);
  });

  it('a progress update that cannot be recorded fails the run once the call is over, never unhandled', async () => {
    fake.scenario({ steps: 4, stepMs: 20 });
    const ctx = runContext({
      onProgress: () => {
        throw new Error('database gone');
      },
    }).ctx;
    const error = await adapter()
      .run(request(), ctx)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(String(error)).toContain('database gone');
    expect(fake.calls[0]!.ended).toBe(true);
  });

  it('the server gone mid-job (socket destroyed) is transient', async () => {
    fake.scenario({ steps: 6, stepMs: 10, outcome: 'drop' });
    const error = await runError(adapter().run(request(), runContext().ctx));
    expect(error.kind).toBe('transient');
  });

  it('no server at all is transient', async () => {
    const gone = await startA1111Fake();
    await gone.close();
    const provider = new A1111TextToImage({ baseUrl: gone.url, pollIntervalMs: 5, fetch: gone.fetch });
    const error = await runError(provider.run(request(), runContext().ctx));
    expect(error.kind).toBe('transient');
  });

  it('a retried job interrupts its earlier task when the server is still on it, then submits afresh', async () => {
    fake.scenario({ steps: 400, stepMs: 10 });
    const first = runContext();
    const stale = adapter().run(request(), first.ctx);
    await waitFor(() => (fake.calls[0]?.step ?? 0) >= 1);
    const retry = runContext({ resumeRequestId: first.submitted[0]! });
    const result = await adapter().run(request(), retry.ctx);
    expect(fake.interrupts).toBe(1);
    expect(fake.calls[0]!.interrupted).toBe(true);
    expect(fake.calls).toHaveLength(2);
    expect(retry.submitted).toEqual([fake.calls[1]!.taskId]);
    expect(result.images).toHaveLength(1);
    await stale.catch(() => undefined);
  });

  it('a retried job whose earlier task is still queued has it interrupted as soon as it starts', async () => {
    // Someone else's task long enough to still be running when the stale one queues behind it.
    fake.scenario({ steps: 300, stepMs: 10 });
    fake.scenario({ steps: 400, stepMs: 10 });
    const foreign = (await anotherClientsTask()).answer;
    const first = runContext();
    // The earlier attempt (its worker gone) waits behind someone else's task.
    const stale = adapter()
      .run(request(), first.ctx)
      .catch(() => undefined);
    await waitFor(() => fake.calls[1]?.queued === true);
    const retry = runContext({ resumeRequestId: first.submitted[0]! });
    const result = await adapter().run(request(), retry.ctx);
    expect(fake.calls[0]).toMatchObject({ interrupted: false, step: 300 });
    expect(fake.calls[1]).toMatchObject({ interrupted: true });
    expect(fake.calls[1]!.step).toBeLessThan(400);
    expect(fake.calls[2]).toMatchObject({ taskId: retry.submitted[0], interrupted: false });
    expect(result.images).toHaveLength(1);
    expect((await foreign).status).toBe(200);
    await stale;
  });

  it('HTTP Basic auth: the right credentials work; wrong ones are transient and logged for the operator', async () => {
    const guarded = await startA1111Fake({ auth: 'lumina:s3cret pass' });
    try {
      const ok = new A1111TextToImage({
        baseUrl: guarded.url,
        auth: 'lumina:s3cret pass',
        pollIntervalMs: 5,
        fetch: guarded.fetch,
      });
      expect((await ok.run(request(), runContext().ctx)).images).toHaveLength(1);

      const warnings: string[] = [];
      const wrong = new A1111TextToImage({
        baseUrl: guarded.url,
        auth: 'lumina:wrong',
        pollIntervalMs: 5,
        fetch: guarded.fetch,
        log: { warn: (_o, m) => warnings.push(m) },
      });
      const error = await runError(wrong.run(request(), runContext().ctx));
      expect(error.kind).toBe('transient');
      expect(warnings.join()).toMatch(/A1111_AUTH/);
      expect(warnings.join()).not.toContain('wrong');
    } finally {
      await guarded.close();
    }
  });

  it('edit: img2img with the image in init_images and our strength as denoising_strength', async () => {
    const photo = await fakePng(400, 300, 4);
    const { ctx, submitted } = runContext();
    const result = await tools().run(
      {
        tool: 'edit',
        providerModel: 'sd_xl_base_1.0.safetensors',
        seed: 9,
        prompt: 'make it night',
        strength: 0.45,
        image: { bytes: photo, contentType: 'image/png', width: 400, height: 300 },
      },
      ctx,
    );
    const [call] = fake.calls;
    expect(call!.path).toBe('/sdapi/v1/img2img');
    expect(call!.body).toMatchObject({
      init_images: [photo.toString('base64')],
      denoising_strength: 0.45,
      prompt: 'make it night',
      seed: 9,
      width: 400,
      height: 304,
      override_settings: { sd_model_checkpoint: 'sd_xl_base_1.0.safetensors' },
    });
    expect(result.kind).toBe('images');
    expect(submitted).toEqual([call!.taskId]);
    if (result.kind === 'images') expect(result.images[0]).toMatchObject({ width: 400, height: 304 });
  });

  it('upscale: extra-single-image with the entry’s upscaler and our factor', async () => {
    const photo = await fakePng(20, 10, 2);
    const result = await tools().run(
      {
        tool: 'upscale',
        providerModel: 'R-ESRGAN 4x+',
        seed: 1,
        factor: 4,
        image: { bytes: photo, contentType: 'image/png', width: 20, height: 10 },
      },
      runContext().ctx,
    );
    expect(fake.calls[0]).toMatchObject({
      path: '/sdapi/v1/extra-single-image',
      body: { image: photo.toString('base64'), upscaler_1: 'R-ESRGAN 4x+', upscaling_resize: 4 },
    });
    if (result.kind !== 'images') throw new Error('expected images');
    expect(result.images[0]).toMatchObject({ width: 80, height: 40 });
  });
});
