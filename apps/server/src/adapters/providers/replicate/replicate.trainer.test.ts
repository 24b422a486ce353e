import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { runContext, runError, useFakeVendor, waitFor } from '../../../../test/support/vendor-adapters.ts';
import { fakePng } from '../../../../test/fakes/png.ts';
import {
  FLUX_LORA_TRAINER,
  FLUX_LORA_TRAINER_VERSION,
  startReplicateFake,
} from '../../../../test/fakes/replicate-server.ts';
import { loadConfig } from '../../../config.ts';
import type { InputImage } from '../image-tools.ts';
import type { TrainingRequest } from '../trainer.ts';
import { ReplicateTextToImage } from './replicate.text-to-image.ts';
import { ReplicateTrainer, createReplicateTrainer } from './replicate.trainer.ts';
import { ReplicateWebhookVerifier } from './replicate.webhook.ts';

const TRAINER = `${FLUX_LORA_TRAINER}:${FLUX_LORA_TRAINER_VERSION}`;
const fake = useFakeVendor(() => startReplicateFake());

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

let models = 0;
/** A request with a destination of its own (each training writes a new model, like the pipeline's). */
async function trainingRequest(overrides: Partial<TrainingRequest> = {}): Promise<TrainingRequest> {
  return {
    providerModel: TRAINER,
    images: await photos(5),
    triggerWord: 'ZKX',
    subject: 'object',
    steps: 800,
    destination: `lumina-test/model-${++models}`,
    baseProviderModel: 'black-forest-labs/flux-dev',
    ...overrides,
  };
}

function trainer(options: { timeoutMs?: number; trainingOwner?: string; apiToken?: string } = {}) {
  return new ReplicateTrainer({
    apiToken: fake.token,
    baseUrl: `${fake.url}/v1`,
    pollIntervalMs: 5,
    fetch: fake.fetch,
    ...options,
  });
}

const calls = (method: string, pattern: RegExp) =>
  fake.received.filter((r) => r.method === method && pattern.test(r.path));
const trainingCreates = () => calls('POST', /\/trainings$/);
const modelCreates = () => calls('POST', /^\/v1\/models$/);

describe('Replicate LoRA training through the replicate client against the fake API', () => {
  it('uploads the zip, creates the destination, trains, reports progress and keeps the weights', async () => {
    fake.scenario({ startingPolls: 1, processingPolls: 4 });
    const hook = 'https://lumina.example/api/webhooks/replicate';
    const { ctx, progress, submitted } = runContext({ webhookUrl: hook });
    const request = await trainingRequest();
    const result = await trainer().train(request, ctx);

    expect(submitted).toEqual([result.requestId]);
    const training = fake.trainings.get(result.requestId)!;
    expect(result.weights).toEqual({
      bytes: fake.weightsBytes(result.requestId),
      contentType: 'application/x-tar',
      fileName: 'trained_model.tar',
      generateWith: (fake.snapshot(result.requestId).output as { version: string }).version,
    });
    expect(result.weights.generateWith).toMatch(new RegExp(`^${request.destination}:[0-9a-f]{64}$`));
    expect(progress[0]).toEqual({ status: 'queued' });
    expect(progress).toContainEqual(expect.objectContaining({ status: 'running', percent: 50 }));
    expect(progress.at(-1)).toMatchObject({ status: 'running', percent: 100 });

    // The destination model was created private on CPU, then the training written into it.
    expect(modelCreates().map((r) => JSON.parse(r.body))).toEqual([
      {
        owner: 'lumina-test',
        name: `model-${models}`,
        visibility: 'private',
        hardware: 'cpu',
        description: expect.any(String),
      },
    ]);
    const create = trainingCreates().at(-1)!;
    expect(create.path).toBe(
      `/v1/models/${FLUX_LORA_TRAINER}/versions/${FLUX_LORA_TRAINER_VERSION}/trainings`,
    );
    expect(JSON.parse(create.body)).toEqual({
      destination: request.destination,
      input: { input_images: expect.any(String), trigger_word: 'ZKX', steps: 800 },
      webhook: hook,
      webhook_events_filter: ['completed'],
    });
    // The zip went through the Files API and holds our photos byte for byte.
    expect(training.zipEntries).toEqual([
      'photo-01.png',
      'photo-02.png',
      'photo-03.png',
      'photo-04.png',
      'photo-05.png',
    ]);
    const upload = fake.upload(training.input.input_images)!;
    expect(upload).toMatchObject({ filename: 'training-photos.zip', contentType: 'application/zip' });
    const entries = unzipSync(new Uint8Array(upload.bytes));
    expect(Buffer.from(entries['photo-05.png']!).equals(await fakePng(64, 64, 4))).toBe(true);
  });

  it('trains into an existing destination without creating it again', async () => {
    const request = await trainingRequest();
    await trainer().train(request, runContext().ctx);
    const before = modelCreates().length;
    const again = await trainer().train(request, runContext().ctx);
    expect(modelCreates().length).toBe(before);
    expect(again.weights.generateWith.startsWith(`${request.destination}:`)).toBe(true);
  });

  it('puts a bare destination name under the training owner, and refuses one without an owner', async () => {
    const result = await trainer({ trainingOwner: 'acme' }).train(
      await trainingRequest({ destination: 'lora-1' }),
      runContext().ctx,
    );
    expect(fake.trainings.get(result.requestId)!.destination).toBe('acme/lora-1');

    const before = fake.received.length;
    const { ctx, submitted } = runContext();
    const error = await runError(trainer().train(await trainingRequest({ destination: 'lora-2' }), ctx));
    expect(error.kind).toBe('rejected');
    expect(error.message).toContain('REPLICATE_TRAINING_OWNER');
    expect([submitted, fake.received.length]).toEqual([[], before]);
  });

  it('refuses a trainer without a version before calling Replicate', async () => {
    const before = fake.received.length;
    const error = await runError(
      trainer().train(await trainingRequest({ providerModel: FLUX_LORA_TRAINER }), runContext().ctx),
    );
    expect(error.kind).toBe('rejected');
    expect(fake.received.length).toBe(before);
  });

  it('resumes a training without uploading or creating again', async () => {
    fake.scenario({ outcome: 'never' });
    const first = new AbortController();
    const started = runContext({ signal: first.signal });
    const running = trainer().train(await trainingRequest(), started.ctx);
    await waitFor(() => started.submitted.length === 1);
    first.abort();
    expect((await runError(running)).kind).toBe('cancelled');

    const id = started.submitted[0]!;
    fake.trainings.get(id)!.scenario.outcome = 'success';
    const before = [trainingCreates().length, fake.uploads.length, modelCreates().length];
    const resumed = runContext({ resumeRequestId: id });
    const result = await trainer().train(await trainingRequest(), resumed.ctx);
    expect(result.requestId).toBe(id);
    expect(result.weights.bytes.equals(fake.weightsBytes(id))).toBe(true);
    expect(resumed.submitted).toEqual([]);
    expect([trainingCreates().length, fake.uploads.length, modelCreates().length]).toEqual(before);
  });

  it('ends with the trainer’s reason when a training fails, and a resumed failed training stays failed (no second one paid for)', async () => {
    fake.scenario({ outcome: 'failed' });
    const first = runContext();
    const failure = await runError(trainer().train(await trainingRequest(), first.ctx));
    expect(failure.kind).toBe('rejected');
    expect(failure.message).toContain('no images with a usable face');
    expect(failure.userMessage).toMatch(/^The trainer could not train on these photos: .*usable face/);
    const creates = trainingCreates().length;
    const resumed = runContext({ resumeRequestId: first.submitted[0] });
    expect((await runError(trainer().train(await trainingRequest(), resumed.ctx))).kind).toBe('rejected');
    expect(resumed.submitted).toEqual([]);
    expect(trainingCreates().length).toBe(creates);
  });

  it('cancel() of a starting training is true, and the run ends cancelled', async () => {
    fake.scenario({ startingPolls: 1000 });
    const controller = new AbortController();
    const { ctx, submitted } = runContext({ signal: controller.signal });
    const running = trainer().train(await trainingRequest(), ctx);
    await waitFor(() => submitted.length === 1 && fake.trainings.get(submitted[0]!)!.polls > 1);
    expect(await trainer().cancel(submitted[0]!)).toBe(true);
    controller.abort();
    expect((await runError(running)).kind).toBe('cancelled');
    expect(fake.snapshot(submitted[0]!).status).toBe('canceled');
    expect(calls('POST', new RegExp(`^/v1/trainings/${submitted[0]}/cancel$`))).toHaveLength(1);
  });

  it('reports a training cancelled at Replicate as cancelled; cancel() of a running one is false', async () => {
    fake.scenario({ processingPolls: 1000 });
    const { ctx, submitted } = runContext();
    const running = trainer().train(await trainingRequest(), ctx);
    await waitFor(() => submitted.length === 1 && fake.trainings.get(submitted[0]!)!.polls > 2);
    expect(await trainer().cancel(submitted[0]!)).toBe(false);
    expect((await runError(running)).kind).toBe('cancelled');
  });

  it('classifies a 500 on create as transient and a bad token as rejected', async () => {
    fake.scenario({ createErrors: 1 });
    const { ctx, submitted } = runContext();
    expect((await runError(trainer().train(await trainingRequest(), ctx))).kind).toBe('transient');
    expect(submitted).toEqual([]);
    const denied = await runError(
      trainer({ apiToken: 'r8_wrong' }).train(await trainingRequest(), runContext().ctx),
    );
    expect(denied.kind).toBe('rejected');
    expect(denied.message).not.toContain('r8_wrong');
  });

  it('times out at the deadline and cancels the training', async () => {
    fake.scenario({ outcome: 'never' });
    const { ctx, submitted } = runContext();
    const error = await runError(trainer({ timeoutMs: 200 }).train(await trainingRequest(), ctx));
    expect(error.kind).toBe('timeout');
    expect(fake.snapshot(submitted[0]!).status).toBe('canceled');
  });

  it('is built from config only when REPLICATE_API_TOKEN is set', () => {
    expect(createReplicateTrainer(loadConfig({}))).toBeUndefined();
    const config = loadConfig({ REPLICATE_API_TOKEN: 'r8_x' });
    expect(createReplicateTrainer(config, { trainingOwner: 'acme' })).toBeInstanceOf(ReplicateTrainer);
  });

  it('delivers the completed training to the webhook URL, signed so the verifier accepts it', async () => {
    const verifier = new ReplicateWebhookVerifier({ secret: fake.webhookSecret });
    const events: unknown[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        events.push(verifier.verify(req.headers, Buffer.concat(chunks)));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/replicate`;
    const result = await trainer().train(await trainingRequest(), runContext({ webhookUrl: hook }).ctx);
    expect(await fake.sendWebhook(result.requestId)).toBe(204);
    expect(events[0]).toMatchObject({
      predictionId: result.requestId,
      status: 'succeeded',
      output: { version: result.weights.generateWith, weights: expect.stringContaining('trained_model.tar') },
    });
    await new Promise((resolve) => receiver.close(resolve));
  });
});

describe('generating with a Replicate-trained version', () => {
  it('creates the prediction by version with lora_scale, the weights being in the version', async () => {
    const trained = await trainer().train(await trainingRequest(), runContext().ctx);
    const adapter = new ReplicateTextToImage({
      apiToken: fake.token,
      baseUrl: `${fake.url}/v1`,
      pollIntervalMs: 5,
      fetch: fake.fetch,
    });
    const result = await adapter.run(
      {
        providerModel: trained.weights.generateWith,
        prompt: 'photo of ZKX on a beach',
        seed: 3,
        width: 64,
        height: 64,
        numImages: 1,
        lora: { url: 'https://lumina.example/files/lora.tar', scale: 0.9 },
      },
      runContext().ctx,
    );
    expect(result.images).toHaveLength(1);
    const create = calls('POST', /^\/v1\/predictions$/).at(-1)!;
    const [destination, version] = trained.weights.generateWith.split(':');
    expect(JSON.parse(create.body)).toEqual({
      version,
      input: {
        prompt: 'photo of ZKX on a beach',
        aspect_ratio: '1:1',
        seed: 3,
        num_outputs: 1,
        output_format: 'png',
        lora_scale: 0.9,
      },
    });
    expect(fake.predictions.get(result.requestId)!.model).toBe(destination);
  });
});
