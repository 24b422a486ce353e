import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { runContext, runError, useFakeVendor, waitFor } from '../../../../test/support/vendor-adapters.ts';
import { FAL_LORA_MODEL, FAL_TRAINER, startFalFake } from '../../../../test/fakes/fal-server.ts';
import { fakePng } from '../../../../test/fakes/png.ts';
import { loadConfig } from '../../../config.ts';
import type { InputImage } from '../image-tools.ts';
import type { TrainingRequest } from '../trainer.ts';
import { FalTextToImage } from './fal.text-to-image.ts';
import { FalTrainer, createFalTrainer } from './fal.trainer.ts';
import { FalWebhookVerifier } from './fal.webhook.ts';

const fake = useFakeVendor(() => startFalFake());

async function photos(count: number): Promise<InputImage[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      bytes: await fakePng(64, 64, i),
      contentType: 'image/png',
      width: 64,
      height: 64,
    })),
  );
}

async function trainingRequest(overrides: Partial<TrainingRequest> = {}): Promise<TrainingRequest> {
  return {
    providerModel: FAL_TRAINER,
    images: await photos(6),
    triggerWord: 'ZKX',
    subject: 'person',
    steps: 1000,
    baseProviderModel: 'fal-ai/flux/dev',
    ...overrides,
  };
}

function trainer(options: { timeoutMs?: number } = {}) {
  return new FalTrainer({
    key: fake.key,
    baseUrl: fake.url,
    pollIntervalMs: 5,
    fetch: fake.fetch,
    ...options,
  });
}

const submits = () => fake.received.filter((r) => r.method === 'POST' && r.path === `/${FAL_TRAINER}`);

describe('fal LoRA training through @fal-ai/client against the fake queue', () => {
  it('uploads the photos as one zip, trains, reports progress and keeps the downloaded LoRA', async () => {
    fake.scenario({ queuedPolls: 1, runningPolls: 4 });
    const { ctx, progress, submitted } = runContext({
      webhookUrl: 'https://lumina.example/api/webhooks/fal',
    });
    const result = await trainer().train(await trainingRequest(), ctx);

    expect(submitted).toEqual([result.requestId]);
    expect(result.kind).toBe('model');
    expect(result.weights).toMatchObject({
      contentType: 'application/octet-stream',
      fileName: 'lora.safetensors',
      generateWith: FAL_LORA_MODEL,
    });
    expect(result.weights.bytes.equals(fake.loraBytes(result.requestId))).toBe(true);
    expect(progress).toContainEqual({ status: 'queued', queuePosition: 0 });
    expect(progress).toContainEqual({ status: 'running', message: 'step 2/4', percent: 50 });
    expect(progress.at(-1)).toEqual({ status: 'running', message: 'step 4/4', percent: 100 });

    const job = fake.requests.get(result.requestId)!;
    expect(job.input).toEqual({
      images_data_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1/),
      trigger_word: 'ZKX',
      steps: 1000,
      is_style: false,
      create_masks: true,
    });
    expect(job.webhookUrl).toBe('https://lumina.example/api/webhooks/fal');
    expect(job.zipEntries).toEqual([1, 2, 3, 4, 5, 6].map((n) => `photo-0${n}.png`));
    // The zip went through fal storage (initiate + signed PUT) and holds our photos byte for byte.
    const upload = fake.upload(job.input.images_data_url)!;
    expect(upload).toMatchObject({ contentType: 'application/zip', putContentType: 'application/zip' });
    const entries = unzipSync(new Uint8Array(upload.bytes!));
    expect(Buffer.from(entries['photo-03.png']!).equals(await fakePng(64, 64, 2))).toBe(true);
  });

  it('is signed like any fal webhook when the training completes, with the LoRA file in its payload', async () => {
    const { ctx } = runContext({ webhookUrl: 'http://127.0.0.1:1/unused' });
    const { requestId } = await trainer().train(await trainingRequest(), ctx);
    const { body, headers } = await fake.signWebhook(requestId);
    const verifier = new FalWebhookVerifier({ jwksUrl: fake.jwksUrl, fetch: fake.fetch });
    const event = await verifier.verify(headers, body);
    expect(event).toMatchObject({
      requestId,
      status: 'OK',
      payload: { diffusers_lora_file: { url: expect.stringContaining('.safetensors') } },
    });
  });

  it('trains a style without face masks', async () => {
    const result = await trainer().train(await trainingRequest({ subject: 'style' }), runContext().ctx);
    expect(fake.requests.get(result.requestId)!.input).toMatchObject({ is_style: true, create_masks: false });
  });

  it('uploads a zip over 90 MB in parts (the client switches to multipart storage)', async () => {
    // Two 46 MB "photos": the bytes are only carried, never decoded, on this path.
    const big = Buffer.alloc(46 * 1024 * 1024, 7);
    const images = [0, 1].map(() => ({ bytes: big, contentType: 'image/jpeg', width: 4000, height: 3000 }));
    const result = await trainer().train(await trainingRequest({ images }), runContext().ctx);
    const job = fake.requests.get(result.requestId)!;
    expect(job.zipEntries).toEqual(['photo-01.jpg', 'photo-02.jpg']);
    expect(fake.received.filter((r) => r.path === '/storage/upload/initiate-multipart')).toHaveLength(1);
    expect(fake.upload(job.input.images_data_url)!.bytes!.length).toBeGreaterThan(92 * 1024 * 1024);
  });

  it('resumes a submitted training without uploading or submitting again', async () => {
    fake.scenario({ outcome: 'never' });
    const first = new AbortController();
    const started = runContext({ signal: first.signal });
    const running = trainer().train(await trainingRequest(), started.ctx);
    await waitFor(() => started.submitted.length === 1);
    first.abort();
    expect((await runError(running)).kind).toBe('cancelled');

    const id = started.submitted[0]!;
    fake.requests.get(id)!.scenario.outcome = 'success';
    const [submitsBefore, uploadsBefore] = [submits().length, fake.uploads.length];
    const resumed = runContext({ resumeRequestId: id });
    const result = await trainer().train(await trainingRequest(), resumed.ctx);
    expect(result.requestId).toBe(id);
    expect(result.weights.bytes.equals(fake.loraBytes(id))).toBe(true);
    expect(resumed.submitted).toEqual([]);
    expect([submits().length, fake.uploads.length]).toEqual([submitsBefore, uploadsBefore]);
  });

  it('submits afresh when the resumed training had failed at fal', async () => {
    fake.scenario({ outcome: 'model-error' });
    const first = runContext();
    expect((await runError(trainer().train(await trainingRequest(), first.ctx))).kind).toBe('transient');
    const resumed = runContext({ resumeRequestId: first.submitted[0] });
    const result = await trainer().train(await trainingRequest(), resumed.ctx);
    expect(resumed.submitted).toEqual([result.requestId]);
    expect(result.requestId).not.toBe(first.submitted[0]);
  });

  it('cancel() removes a queued training, and the run ends cancelled', async () => {
    fake.scenario({ queuedPolls: 1000 });
    const controller = new AbortController();
    const { ctx, submitted } = runContext({ signal: controller.signal });
    const running = trainer().train(await trainingRequest(), ctx);
    await waitFor(() => submitted.length === 1 && fake.requests.get(submitted[0]!)!.statusPolls > 1);
    expect(await trainer().cancel(submitted[0]!, FAL_TRAINER)).toBe(true);
    controller.abort();
    expect((await runError(running)).kind).toBe('cancelled');
    expect(fake.requests.get(submitted[0]!)!.cancelled).toBe(true);
  });

  it('classifies a trainer crash as transient and a refused input as rejected', async () => {
    fake.scenario({ outcome: 'model-error' }, { outcome: 'rejected' });
    const crash = await runError(trainer().train(await trainingRequest(), runContext().ctx));
    expect(crash.kind).toBe('transient');
    expect(crash.message).toContain('CUDA out of memory');
    const refused = await runError(trainer().train(await trainingRequest(), runContext().ctx));
    expect(refused.kind).toBe('rejected');
  });

  it('classifies a 500 at submit as transient, with nothing submitted', async () => {
    fake.scenario({ submitErrors: 1 });
    const { ctx, submitted } = runContext();
    const error = await runError(trainer().train(await trainingRequest(), ctx));
    expect(error.kind).toBe('transient');
    expect(submitted).toEqual([]);
  });

  it('classifies a LoRA file that cannot be downloaded as transient', async () => {
    fake.scenario({ lostFiles: true });
    const error = await runError(trainer().train(await trainingRequest(), runContext().ctx));
    expect(error.kind).toBe('transient');
    expect(error.message).toMatch(/pytorch_lora_weights\.safetensors answered HTTP 404/);
  });

  it('times out at the deadline and cancels the training at fal', async () => {
    fake.scenario({ outcome: 'never' });
    const { ctx, submitted } = runContext();
    const error = await runError(trainer({ timeoutMs: 200 }).train(await trainingRequest(), ctx));
    expect(error.kind).toBe('timeout');
    expect(fake.requests.get(submitted[0]!)!.cancelled).toBe(true);
  });

  it('is built from config only when FAL_KEY is set', () => {
    expect(createFalTrainer(loadConfig({}))).toBeUndefined();
    expect(createFalTrainer(loadConfig({ FAL_KEY: 'a:b', FAL_BASE_URL: fake.url }))).toBeInstanceOf(
      FalTrainer,
    );
  });
});

describe('generating with a fal-trained LoRA', () => {
  const generator = () =>
    new FalTextToImage({ key: fake.key, baseUrl: fake.url, pollIntervalMs: 5, fetch: fake.fetch });
  const generation = (lora: { url: string; scale: number }) => ({
    providerModel: FAL_LORA_MODEL,
    prompt: 'photo of ZKX person as an astronaut',
    seed: 7,
    width: 64,
    height: 64,
    numImages: 1,
    lora,
  });

  it('runs fal-ai/flux-lora with the weights URL as loras[].path, which fal downloads', async () => {
    const trained = await trainer().train(await trainingRequest(), runContext().ctx);
    // Any URL fal can fetch; here the trained file itself on the fake's CDN.
    const lora = {
      url: `${fake.url}/files/${trained.requestId}/pytorch_lora_weights.safetensors`,
      scale: 0.8,
    };
    const result = await generator().run({ ...generation(lora), loraScale: 1.2 }, runContext().ctx);
    expect(result.images).toHaveLength(1);
    const job = fake.requests.get(result.requestId)!;
    expect(job.input).toMatchObject({
      prompt: 'photo of ZKX person as an astronaut',
      loras: [{ path: lora.url, scale: 1.2 }],
    });
    expect(await job.loraFetches).toEqual([
      { index: 0, path: lora.url, status: 200, bytes: trained.weights.bytes.length },
    ]);
  });

  it('is refused (rejected) when fal cannot download the weights', async () => {
    const error = await runError(
      generator().run(
        generation({ url: `${fake.url}/files/gone/lora.safetensors`, scale: 1 }),
        runContext().ctx,
      ),
    );
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toContain('loras.0.path: Could not download the LoRA weights');
  });
});
