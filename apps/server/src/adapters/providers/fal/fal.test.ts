import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { runContext, runError, useFakeVendor, waitFor } from '../../../../test/support/vendor-adapters.ts';
import { startFalFake } from '../../../../test/fakes/fal-server.ts';
import { loadConfig } from '../../../config.ts';
import { type TextToImageRequest } from '../text-to-image.ts';
import { FalTextToImage, createFalTextToImage, toFalInput } from './fal.text-to-image.ts';
import { FalWebhookVerifier, WebhookVerificationError, createFalWebhookVerifier } from './fal.webhook.ts';

const MODEL = 'fal-ai/flux/dev';
const request: TextToImageRequest = {
  providerModel: MODEL,
  prompt: 'a lighthouse at dusk',
  seed: 42,
  width: 64,
  height: 48,
  numImages: 2,
};

const fake = useFakeVendor(() => startFalFake());

function adapter(options: { timeoutMs?: number } = {}) {
  return new FalTextToImage({
    key: fake.key,
    baseUrl: fake.url,
    pollIntervalMs: 5,
    fetch: fake.fetch,
    ...options,
  });
}

function calls(method: string, pattern: RegExp) {
  return fake.received.filter((r) => r.method === method && pattern.test(r.path));
}

describe('fal text-to-image through @fal-ai/client against the fake queue', () => {
  it('submits, reports queue position and logs, and downloads every image', async () => {
    fake.scenario({ queuedPolls: 2, runningPolls: 3 });
    const { ctx, events, progress, submitted } = runContext();
    const result = await adapter().run(request, ctx);

    expect(submitted).toEqual([result.requestId]);
    expect(events[0]).toBe('submitted');
    expect(progress).toContainEqual({ status: 'queued', queuePosition: 1 });
    expect(progress).toContainEqual({ status: 'queued', queuePosition: 0 });
    expect(progress).toContainEqual({ status: 'running', message: 'step 3/3', percent: 100 });
    expect(progress.find((p) => p.status === 'running')).toEqual({
      status: 'running',
      message: 'step 1/3',
      percent: 33,
    });

    expect(result.seed).toBe(42);
    expect(result.images).toHaveLength(2);
    for (const [i, image] of result.images.entries()) {
      expect(image.bytes.equals(await fake.imageBytes(result.requestId, i))).toBe(true);
      expect(image).toMatchObject({ contentType: 'image/png', width: 64, height: 48 });
    }
    expect(result.images[0]!.bytes.equals(result.images[1]!.bytes)).toBe(false);

    const job = fake.requests.get(result.requestId)!;
    expect(job.endpoint).toBe(MODEL);
    expect(job.input).toMatchObject({
      prompt: request.prompt,
      seed: 42,
      num_images: 2,
      image_size: { width: 64, height: 48 },
    });
    // The official client's wire format: status under owner/app only, with logs; auth on every call.
    const statusCalls = calls('GET', new RegExp(`^/fal-ai/flux/requests/${result.requestId}/status$`));
    expect(statusCalls.length).toBe(6);
    expect(statusCalls[0]!.query.get('logs')).toBe('1');
    expect(
      fake.received
        .filter((r) => r.path.startsWith('/fal-ai'))
        .every((r) => r.headers.authorization === `Key ${fake.key}`),
    ).toBe(true);
  });

  it('sends the webhook URL as fal_webhook on submit', async () => {
    const { ctx } = runContext({ webhookUrl: 'https://lumina.example/api/webhooks/fal' });
    const result = await adapter().run(request, ctx);
    expect(fake.requests.get(result.requestId)!.webhookUrl).toBe('https://lumina.example/api/webhooks/fal');
  });

  it('persists the request id before the first status poll', async () => {
    let pollsWhenSubmitted = -1;
    const { ctx } = runContext({
      onSubmitted: (id) => {
        pollsWhenSubmitted = fake.requests.get(id)!.statusPolls;
      },
    });
    await adapter().run(request, ctx);
    expect(pollsWhenSubmitted).toBe(0);
  });

  it('resumes a submitted request without submitting again', async () => {
    fake.scenario({ outcome: 'never' });
    const first = new AbortController();
    const { ctx, submitted } = runContext({ signal: first.signal });
    const running = adapter().run(request, ctx);
    await waitFor(() => submitted.length === 1);
    first.abort();
    expect((await runError(running)).kind).toBe('cancelled');

    const id = submitted[0]!;
    fake.requests.get(id)!.scenario.outcome = 'success';
    const submitsBefore = calls('POST', /^\/fal-ai\/flux\/dev$/).length;
    const resumed = runContext({ resumeRequestId: id });
    const result = await adapter().run(request, resumed.ctx);
    expect(result.requestId).toBe(id);
    expect(resumed.submitted).toEqual([]);
    expect(calls('POST', /^\/fal-ai\/flux\/dev$/).length).toBe(submitsBefore);
  });

  it('submits afresh when the resumed request had failed at fal', async () => {
    fake.scenario({ outcome: 'model-error' });
    const first = runContext();
    expect((await runError(adapter().run(request, first.ctx))).kind).toBe('transient');
    const resumed = runContext({ resumeRequestId: first.submitted[0] });
    const result = await adapter().run(request, resumed.ctx);
    expect(resumed.submitted).toEqual([result.requestId]);
    expect(result.requestId).not.toBe(first.submitted[0]);
  });

  it('classifies a model failure as transient with a readable message', async () => {
    fake.scenario({ outcome: 'model-error' });
    const error = await runError(adapter().run(request, runContext().ctx));
    expect(error.kind).toBe('transient');
    expect(error.message).toContain('CUDA out of memory');
    expect(error.userMessage).toMatch(/temporary problem/);
  });

  it('classifies input validation (422 at submit) as rejected', async () => {
    fake.scenario({ rejectAtSubmit: true });
    const { ctx, submitted } = runContext();
    const error = await runError(adapter().run(request, ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe('The provider did not accept these settings (prompt: field required).');
    expect(submitted).toEqual([]);
  });

  it('classifies a 422 result as rejected', async () => {
    fake.scenario({ outcome: 'rejected' });
    const error = await runError(adapter().run(request, runContext().ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toContain('num_inference_steps: ensure this value is less than or equal to 50');
  });

  it('classifies a content-policy refusal as rejected and says why', async () => {
    fake.scenario({ outcome: 'content-policy' });
    const error = await runError(adapter().run(request, runContext().ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe(
      'The provider refused this prompt: The prompt was flagged by the content checker.',
    );
  });

  it('rejects when the safety checker flagged every image', async () => {
    fake.scenario({ outcome: 'nsfw' });
    const error = await runError(adapter().run(request, runContext().ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toMatch(/safety checker/);
  });

  it('classifies a 500 on the result as transient, and a retried job resumes the same request', async () => {
    fake.scenario({ resultErrors: 1 });
    const first = runContext();
    const error = await runError(adapter().run(request, first.ctx));
    expect(error.kind).toBe('transient');
    const resumed = runContext({ resumeRequestId: first.submitted[0] });
    const result = await adapter().run(request, resumed.ctx);
    expect(result.requestId).toBe(first.submitted[0]);
    expect(resumed.submitted).toEqual([]);
  });

  it('rides out a 500 on a status poll (the client retries status calls itself, after ~1 s)', async () => {
    fake.scenario({ statusErrors: 1 });
    const result = await adapter().run(request, runContext().ctx);
    expect(result.images).toHaveLength(2);
  });

  it('classifies a 500 at submit as transient', async () => {
    fake.scenario({ submitErrors: 1 });
    const error = await runError(adapter().run(request, runContext().ctx));
    expect(error.kind).toBe('transient');
    expect(error.userMessage).toMatch(/temporary problem/);
  });

  it('reports a network failure as transient', async () => {
    // A connection that drops mid-request (no retryable error code, so the client gives up at once).
    const dropping: typeof fetch = () => Promise.reject(new Error('socket hang up'));
    const broken = new FalTextToImage({
      key: fake.key,
      baseUrl: fake.url,
      pollIntervalMs: 5,
      fetch: dropping,
    });
    const error = await runError(broken.run(request, runContext().ctx));
    expect(error.kind).toBe('transient');
    expect(error.message).toContain('socket hang up');
  });

  it('stops with cancelled when the job is cancelled, and cancel() removes a queued request', async () => {
    fake.scenario({ queuedPolls: 1000 });
    const controller = new AbortController();
    const { ctx, submitted } = runContext({ signal: controller.signal });
    const running = adapter().run(request, ctx);
    await waitFor(() => submitted.length === 1 && fake.requests.get(submitted[0]!)!.statusPolls > 1);
    expect(await adapter().cancel(submitted[0]!, MODEL)).toBe(true);
    controller.abort();
    const error = await runError(running);
    expect(error.kind).toBe('cancelled');
    expect(fake.requests.get(submitted[0]!)!.cancelled).toBe(true);
    expect(calls('PUT', new RegExp(`^/fal-ai/flux/requests/${submitted[0]}/cancel$`))).toHaveLength(1);
  });

  it('reports a request cancelled at fal as cancelled', async () => {
    fake.scenario({ runningPolls: 1000 });
    const { ctx, submitted } = runContext();
    const running = adapter().run(request, ctx);
    await waitFor(() => submitted.length === 1 && fake.requests.get(submitted[0]!)!.statusPolls > 2);
    expect(await adapter().cancel(submitted[0]!, MODEL)).toBe(false); // already running
    const error = await runError(running);
    expect(error.kind).toBe('cancelled');
  });

  it('cancel() of a finished request is false', async () => {
    const result = await adapter().run(request, runContext().ctx);
    expect(await adapter().cancel(result.requestId, MODEL)).toBe(false);
  });

  it('times out at the deadline and cancels the request at fal', async () => {
    fake.scenario({ outcome: 'never' });
    const { ctx, submitted } = runContext();
    const error = await runError(adapter({ timeoutMs: 150 }).run(request, ctx));
    expect(error.kind).toBe('timeout');
    expect(error.userMessage).toMatch(/did not finish/);
    expect(fake.requests.get(submitted[0]!)!.cancelled).toBe(true);
  });

  it('maps our request onto fal input', () => {
    expect(
      toFalInput({
        ...request,
        negativePrompt: 'fog',
        promptStrength: 0.5,
        lora: { url: 'https://x/l.safetensors', scale: 0.8 },
      }),
    ).toEqual({
      prompt: 'a lighthouse at dusk',
      negative_prompt: 'fog',
      image_size: { width: 64, height: 48 },
      seed: 42,
      num_images: 2,
      output_format: 'png',
      enable_safety_checker: true,
      guidance_scale: 4.5,
      loras: [{ path: 'https://x/l.safetensors', scale: 0.8 }],
    });
  });

  it('is built from config only when FAL_KEY is set', () => {
    expect(createFalTextToImage(loadConfig({}))).toBeUndefined();
    const config = loadConfig({ FAL_KEY: 'a:b', FAL_BASE_URL: fake.url, PROVIDER_TIMEOUT_SECONDS: '30' });
    expect(createFalTextToImage(config)).toBeInstanceOf(FalTextToImage);
    expect(config.providers.fal.webhookJwksUrl).toBe('https://rest.alpha.fal.ai/.well-known/jwks.json');
  });
});

describe('fal webhook verification', () => {
  let requestId: string;
  beforeAll(async () => {
    const { ctx } = runContext({ webhookUrl: 'http://127.0.0.1:1/unused' });
    requestId = (await adapter().run(request, ctx)).requestId;
  });

  function verifier(now?: () => number) {
    return new FalWebhookVerifier({ jwksUrl: fake.jwksUrl, fetch: fake.fetch, ...(now ? { now } : {}) });
  }

  it('accepts a correctly signed webhook and parses it', async () => {
    const { body, headers } = await fake.signWebhook(requestId);
    const event = await verifier().verify(headers, Buffer.from(body));
    expect(event.requestId).toBe(requestId);
    expect(event.status).toBe('OK');
    expect((event.payload as { images: unknown[] }).images).toHaveLength(2);
  });

  it('parses an ERROR webhook', async () => {
    fake.scenario({ outcome: 'rejected' });
    const failed = runContext({ webhookUrl: 'http://127.0.0.1:1/unused' });
    await adapter()
      .run(request, failed.ctx)
      .catch(() => undefined);
    const { body, headers } = await fake.signWebhook(failed.submitted[0]!);
    const event = await verifier().verify(headers, body);
    expect(event).toMatchObject({ status: 'ERROR', error: 'Invalid status code: 422' });
  });

  it('refuses a tampered body', async () => {
    const { body, headers } = await fake.signWebhook(requestId);
    const tampered = body.replace('"status":"OK"', '"status":"ERROR"');
    await expect(verifier().verify(headers, tampered)).rejects.toThrow(WebhookVerificationError);
  });

  it('refuses a signature from another key', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const { body, headers } = await fake.signWebhook(requestId, { key: privateKey });
    await expect(verifier().verify(headers, body)).rejects.toThrow('does not verify');
  });

  it('refuses an expired or future timestamp', async () => {
    const old = Math.floor(Date.now() / 1000) - 301;
    const stale = await fake.signWebhook(requestId, { timestamp: old });
    await expect(verifier().verify(stale.headers, stale.body)).rejects.toThrow('outside the allowed window');
    const future = await fake.signWebhook(requestId, { timestamp: old + 602 });
    await expect(verifier().verify(future.headers, future.body)).rejects.toThrow(
      'outside the allowed window',
    );
  });

  it('refuses missing headers', async () => {
    const { body, headers } = await fake.signWebhook(requestId);
    const { 'x-fal-webhook-signature': _omitted, ...rest } = headers;
    await expect(verifier().verify(rest, body)).rejects.toThrow('missing');
  });

  it('caches the key set', async () => {
    const v = verifier();
    const before = fake.jwksFetches;
    for (let i = 0; i < 3; i++) {
      const { body, headers } = await fake.signWebhook(requestId);
      await v.verify(headers, body);
    }
    expect(fake.jwksFetches - before).toBe(1);
  });

  it('is delivered to the URL given at submit, signed so the verifier accepts it', async () => {
    const v = createFalWebhookVerifier(
      loadConfig({ FAL_KEY: fake.key, FAL_WEBHOOK_JWKS_URL: fake.jwksUrl }),
      {
        fetch: fake.fetch,
      },
    )!;
    const received: Array<Promise<unknown>> = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(v.verify(req.headers, Buffer.concat(chunks)));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/fal`;
    const { ctx } = runContext({ webhookUrl: hook });
    const result = await adapter().run(request, ctx);
    expect(await fake.sendWebhook(result.requestId)).toBe(200);
    await expect(received[0]).resolves.toMatchObject({ requestId: result.requestId, status: 'OK' });
    await new Promise((resolve) => receiver.close(resolve));
  });
});
