import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateWebhook } from 'replicate';
import { beforeAll, describe, expect, it } from 'vitest';
import { runContext, runError, useFakeVendor, waitFor } from '../../../../test/support/vendor-adapters.ts';
import { startReplicateFake } from '../../../../test/fakes/replicate-server.ts';
import { loadConfig } from '../../../config.ts';
import { type TextToImageRequest } from '../text-to-image.ts';
import {
  ReplicateTextToImage,
  createReplicateTextToImage,
  nearestAspectRatio,
  toReplicateInput,
} from './replicate.text-to-image.ts';
import {
  ReplicateWebhookVerifier,
  WebhookVerificationError,
  createReplicateWebhookVerifier,
} from './replicate.webhook.ts';

const MODEL = 'black-forest-labs/flux-dev';
const request: TextToImageRequest = {
  providerModel: MODEL,
  prompt: 'a red fox in snow',
  seed: 51234,
  width: 1024,
  height: 768,
  numImages: 2,
};

const fake = useFakeVendor(() => startReplicateFake());

function adapter(options: { timeoutMs?: number } = {}) {
  return new ReplicateTextToImage({
    apiToken: fake.token,
    baseUrl: `${fake.url}/v1`,
    pollIntervalMs: 5,
    fetch: fake.fetch,
    ...options,
  });
}

const creates = () => fake.received.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions'));

describe('Replicate text-to-image through the replicate client against the fake API', () => {
  it('creates a prediction, reports progress from the logs, and downloads every output', async () => {
    fake.scenario({ startingPolls: 2, processingPolls: 4 });
    const { ctx, progress, submitted } = runContext();
    const result = await adapter().run(request, ctx);

    expect(submitted).toEqual([result.requestId]);
    expect(progress[0]).toEqual({ status: 'queued' });
    expect(progress).toContainEqual(expect.objectContaining({ status: 'running', percent: 25 }));
    expect(progress.at(-1)).toMatchObject({
      status: 'running',
      percent: 100,
      message: expect.stringContaining('4/4'),
    });
    expect(result.seed).toBe(51234);
    expect(result.images).toHaveLength(2);
    for (const [i, image] of result.images.entries()) {
      expect(image.bytes.equals(await fake.imageBytes(result.requestId, i))).toBe(true);
      expect(image).toMatchObject({ contentType: 'image/png', width: 64, height: 48 });
    }

    const create = creates().at(-1)!;
    expect(create.path).toBe('/v1/models/black-forest-labs/flux-dev/predictions');
    expect(create.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(create.headers.prefer).toBeUndefined();
    expect(JSON.parse(create.body)).toEqual({
      input: {
        prompt: 'a red fox in snow',
        aspect_ratio: '4:3',
        seed: 51234,
        num_outputs: 2,
        output_format: 'png',
      },
    });
  });

  it('creates by version for owner/name:version and sends the webhook with a filter', async () => {
    const version = 'a'.repeat(64);
    const { ctx } = runContext({ webhookUrl: 'https://lumina.example/api/webhooks/replicate' });
    await adapter().run({ ...request, providerModel: `someone/lora:${version}` }, ctx);
    const create = creates().at(-1)!;
    expect(create.path).toBe('/v1/predictions');
    expect(JSON.parse(create.body)).toMatchObject({
      version,
      webhook: 'https://lumina.example/api/webhooks/replicate',
      webhook_events_filter: ['start', 'completed'],
    });
  });

  it('persists the prediction id before the first poll', async () => {
    let pollsWhenSubmitted = -1;
    const { ctx } = runContext({
      onSubmitted: (id) => void (pollsWhenSubmitted = fake.predictions.get(id)!.gets),
    });
    await adapter().run(request, ctx);
    expect(pollsWhenSubmitted).toBe(0);
  });

  it('resumes a prediction without creating another', async () => {
    fake.scenario({ outcome: 'never' });
    const first = new AbortController();
    const started = runContext({ signal: first.signal });
    const running = adapter().run(request, started.ctx);
    await waitFor(() => started.submitted.length === 1);
    first.abort();
    expect((await runError(running)).kind).toBe('cancelled');

    const id = started.submitted[0]!;
    fake.predictions.get(id)!.scenario.outcome = 'success';
    const before = creates().length;
    const resumed = runContext({ resumeRequestId: id });
    const result = await adapter().run(request, resumed.ctx);
    expect(result.requestId).toBe(id);
    expect(resumed.submitted).toEqual([]);
    expect(creates().length).toBe(before);
  });

  it('creates afresh when the resumed prediction had failed', async () => {
    fake.scenario({ outcome: 'failed' });
    const first = runContext();
    await runError(adapter().run(request, first.ctx));
    const resumed = runContext({ resumeRequestId: first.submitted[0] });
    const result = await adapter().run(request, resumed.ctx);
    expect(resumed.submitted).toEqual([result.requestId]);
    expect(result.requestId).not.toBe(first.submitted[0]);
  });

  it('classifies a failed prediction as transient', async () => {
    fake.scenario({ outcome: 'failed' });
    const error = await runError(adapter().run(request, runContext().ctx));
    expect(error.kind).toBe('transient');
    expect(error.message).toContain('CUDA out of memory');
    expect(error.userMessage).toMatch(/temporary problem/);
  });

  it('classifies an NSFW failure as rejected and says why', async () => {
    fake.scenario({ outcome: 'nsfw' });
    const error = await runError(adapter().run(request, runContext().ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe(
      'The provider refused this prompt: NSFW content detected. Try running it again, or try a different prompt.',
    );
  });

  it('classifies invalid input (422) as rejected with the field named', async () => {
    fake.scenario({ rejectAtCreate: true });
    const { ctx, submitted } = runContext();
    const error = await runError(adapter().run(request, ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe(
      'The provider did not accept these settings (input.num_outputs: Must be less than or equal to 4).',
    );
    expect(submitted).toEqual([]);
  });

  it('classifies a bad token as rejected, without echoing it', async () => {
    const wrong = new ReplicateTextToImage({
      apiToken: 'r8_wrong',
      baseUrl: `${fake.url}/v1`,
      fetch: fake.fetch,
    });
    const error = await runError(wrong.run(request, runContext().ctx));
    expect(error.kind).toBe('rejected');
    expect(error.message).not.toContain('r8_wrong');
  });

  it('classifies a 500 on create as transient (POST is not retried by the client)', async () => {
    fake.scenario({ createErrors: 1 });
    const error = await runError(adapter().run(request, runContext().ctx));
    expect(error.kind).toBe('transient');
  });

  it('rides out a transient 500 on a poll (the client retries GETs)', async () => {
    fake.scenario({ getErrors: 2 });
    const { ctx } = runContext();
    const result = await adapter().run(request, ctx);
    expect(fake.predictions.get(result.requestId)!.gets).toBeGreaterThan(
      fake.predictions.get(result.requestId)!.polls,
    );
  });

  it('stops with cancelled on abort; cancel() of a starting prediction is true', async () => {
    fake.scenario({ startingPolls: 1000 });
    const controller = new AbortController();
    const { ctx, submitted } = runContext({ signal: controller.signal });
    const running = adapter().run(request, ctx);
    await waitFor(() => submitted.length === 1 && fake.predictions.get(submitted[0]!)!.polls > 1);
    expect(await adapter().cancel(submitted[0]!)).toBe(true);
    controller.abort();
    expect((await runError(running)).kind).toBe('cancelled');
    expect(fake.snapshot(submitted[0]!).status).toBe('canceled');
  });

  it('reports a prediction cancelled at Replicate as cancelled; cancel() of a running one is false', async () => {
    fake.scenario({ processingPolls: 1000 });
    const { ctx, submitted } = runContext();
    const running = adapter().run(request, ctx);
    await waitFor(() => submitted.length === 1 && fake.predictions.get(submitted[0]!)!.polls > 2);
    expect(await adapter().cancel(submitted[0]!)).toBe(false);
    expect((await runError(running)).kind).toBe('cancelled');
  });

  it('times out at the deadline and cancels the prediction', async () => {
    fake.scenario({ outcome: 'never' });
    const { ctx, submitted } = runContext();
    const error = await runError(adapter({ timeoutMs: 150 }).run(request, ctx));
    expect(error.kind).toBe('timeout');
    expect(fake.snapshot(submitted[0]!).status).toBe('canceled');
  });

  it('maps our request onto Replicate input', () => {
    expect(nearestAspectRatio(1920, 1080)).toBe('16:9');
    expect(nearestAspectRatio(832, 1216)).toBe('2:3');
    expect(
      toReplicateInput({
        ...request,
        negativePrompt: 'fog',
        promptStrength: 0.7,
        lora: { url: 'https://x/w.tar', scale: 0.9 },
      }),
    ).toEqual({
      prompt: 'a red fox in snow',
      negative_prompt: 'fog',
      aspect_ratio: '4:3',
      seed: 51234,
      num_outputs: 2,
      output_format: 'png',
      prompt_strength: 0.7,
      lora_weights: 'https://x/w.tar',
      lora_scale: 0.9,
    });
  });

  it('is built from config only when REPLICATE_API_TOKEN is set', () => {
    expect(createReplicateTextToImage(loadConfig({}))).toBeUndefined();
    const config = loadConfig({ REPLICATE_API_TOKEN: 'r8_x', REPLICATE_BASE_URL: `${fake.url}/v1/` });
    expect(config.providers.replicate.baseUrl).toBe(`${fake.url}/v1`);
    expect(createReplicateTextToImage(config)).toBeInstanceOf(ReplicateTextToImage);
  });
});

describe('Replicate webhook verification', () => {
  let predictionId: string;
  beforeAll(async () => {
    const { ctx } = runContext({ webhookUrl: 'http://127.0.0.1:1/unused' });
    predictionId = (await adapter().run(request, ctx)).requestId;
  });
  const verifier = () => new ReplicateWebhookVerifier({ secret: fake.webhookSecret });

  it('accepts a signed webhook, agrees with the SDK validateWebhook, and parses it', async () => {
    const { body, headers } = fake.signWebhook(predictionId);
    const event = verifier().verify(headers, Buffer.from(body));
    expect(event).toMatchObject({ predictionId, status: 'succeeded', webhookId: headers['webhook-id'] });
    expect(event.output).toHaveLength(2);
    const sdk = await validateWebhook({
      id: headers['webhook-id']!,
      timestamp: headers['webhook-timestamp']!,
      signature: headers['webhook-signature']!,
      body,
      secret: fake.webhookSecret,
    });
    expect(sdk).toBe(true);
  });

  it('accepts when any of several signatures matches (secret rotation)', () => {
    const { body, headers } = fake.signWebhook(predictionId);
    headers['webhook-signature'] =
      `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}`;
    expect(verifier().verify(headers, body).predictionId).toBe(predictionId);
  });

  it('refuses a tampered body', async () => {
    const { body, headers } = fake.signWebhook(predictionId);
    const tampered = body.replace('"succeeded"', '"failed"');
    expect(() => verifier().verify(headers, tampered)).toThrow(WebhookVerificationError);
    expect(
      await validateWebhook({
        id: headers['webhook-id']!,
        timestamp: headers['webhook-timestamp']!,
        signature: headers['webhook-signature']!,
        body: tampered,
        secret: fake.webhookSecret,
      }),
    ).toBe(false);
  });

  it('refuses another secret', () => {
    const { body, headers } = fake.signWebhook(predictionId, {
      secret: `whsec_${Buffer.from('another secret of 24 bytes!').toString('base64')}`,
    });
    expect(() => verifier().verify(headers, body)).toThrow('does not verify');
  });

  it('refuses an expired timestamp (which the SDK helper alone would accept)', async () => {
    const old = Math.floor(Date.now() / 1000) - 301;
    const { body, headers } = fake.signWebhook(predictionId, { timestamp: old });
    expect(() => verifier().verify(headers, body)).toThrow('outside the allowed window');
    expect(
      await validateWebhook({
        id: headers['webhook-id']!,
        timestamp: headers['webhook-timestamp']!,
        signature: headers['webhook-signature']!,
        body,
        secret: fake.webhookSecret,
      }),
    ).toBe(true);
  });

  it('refuses missing headers and is absent without a configured secret', () => {
    const { body, headers } = fake.signWebhook(predictionId);
    const { 'webhook-signature': _omitted, ...rest } = headers;
    expect(() => verifier().verify(rest, body)).toThrow('missing');
    expect(createReplicateWebhookVerifier(loadConfig({}))).toBeUndefined();
    expect(
      createReplicateWebhookVerifier(loadConfig({ REPLICATE_WEBHOOK_SECRET: fake.webhookSecret })),
    ).toBeInstanceOf(ReplicateWebhookVerifier);
  });

  it('is delivered to the prediction webhook URL, signed so the verifier accepts it', async () => {
    const v = verifier();
    const events: unknown[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        events.push(v.verify(req.headers, Buffer.concat(chunks)));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/replicate`;
    const result = await adapter().run(request, runContext({ webhookUrl: hook }).ctx);
    expect(await fake.sendWebhook(result.requestId)).toBe(204);
    expect(events[0]).toMatchObject({ predictionId: result.requestId, status: 'succeeded' });
    await new Promise((resolve) => receiver.close(resolve));
  });
});
