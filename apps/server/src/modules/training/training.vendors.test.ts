import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ProviderError,
  type RunContext,
  type TextToImageProvider,
  type TextToImageRequest,
} from '../../adapters/providers/text-to-image.ts';
import type { TrainerProvider, TrainingRequest, TrainingResult } from '../../adapters/providers/trainer.ts';
import { fakePng } from '../../../test/fakes/png.ts';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { balanceOf, eventually, jobView, useSignedIn, waitForJob } from '../../../test/support/api.ts';
import { findModel } from './training.repository.ts';
import { jobCharges, myModel, uploadTrainingSet } from './training.test-helpers.ts';

/** Waits for the run's cancel signal, then fails as a cancelled vendor request does. */
const untilAborted = (ctx: RunContext) =>
  new Promise<never>((_, reject) => {
    const stop = () => reject(new ProviderError('aborted', 'cancelled', 'Training was cancelled.'));
    if (ctx.signal.aborted) stop();
    ctx.signal.addEventListener('abort', stop);
  });

const weights = (generateWith: string, requestId: string): TrainingResult => ({
  kind: 'model',
  requestId,
  weights: {
    bytes: Buffer.from('LORA-WEIGHTS'),
    contentType: 'application/octet-stream',
    fileName: 'lora.safetensors',
    generateWith,
  },
});

/** The default (local) trainer, scripted per training: each call takes the next behaviour. */
class ScriptedTrainer implements TrainerProvider {
  readonly name = 'local' as const;
  readonly available = true;
  script: Array<(request: TrainingRequest, ctx: RunContext) => Promise<TrainingResult>> = [];
  calls = 0;
  cancelled: string[] = [];
  train(request: TrainingRequest, ctx: RunContext) {
    this.calls++;
    const next = this.script.shift();
    if (!next) throw new Error('no scripted behaviour left');
    return next(request, ctx);
  }
  async cancel(requestId: string) {
    this.cancelled.push(requestId);
    return true;
  }
}

/** Replicate's trainings as the pipeline sees them: submitted once, finished when the vendor says. */
class FakeReplicateTrainer implements TrainerProvider {
  readonly name = 'replicate' as const;
  readonly available = true;
  submitted: TrainingRequest[] = [];
  resumed = 0;
  async train(request: TrainingRequest, ctx: RunContext): Promise<TrainingResult> {
    const version = 'a'.repeat(64);
    if (ctx.resumeRequestId) {
      // Asked again about a submitted training (a webhook's sync, or a retry): it is done.
      this.resumed++;
      return weights(`${request.destination}:${version}`, ctx.resumeRequestId);
    }
    this.submitted.push(request);
    await ctx.onSubmitted(`r8-training-${this.submitted.length}`);
    await ctx.onProgress({ status: 'running', percent: 10, message: 'flux_train_replicate: 100/1000' });
    // Polls far less often than the webhook arrives: only the webhook can finish it here.
    return untilAborted(ctx);
  }
  async cancel() {
    return false;
  }
}

/** Replicate's text-to-image, recording what a trained model's generation sends it. */
class RecordingTextToImage implements TextToImageProvider {
  readonly name = 'replicate' as const;
  readonly available = true;
  requests: TextToImageRequest[] = [];
  async run(request: TextToImageRequest) {
    this.requests.push(request);
    return {
      images: [{ bytes: await fakePng(64, 64), contentType: 'image/png', width: 64, height: 64 }],
      seed: request.seed,
      requestId: `r8-prediction-${this.requests.length}`,
    };
  }
  async cancel() {
    return false;
  }
}

const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;

/** A Replicate webhook for `id`, signed as Replicate signs them. */
function replicateWebhook(id: string, status: string) {
  const body = JSON.stringify({ id, status, output: { version: 'x' } });
  const webhookId = `msg_${randomBytes(8).toString('hex')}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', Buffer.from(webhookSecret.slice('whsec_'.length), 'base64'))
    .update(`${webhookId}.${timestamp}.${body}`)
    .digest('base64');
  return {
    payload: body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    },
  };
}

describe(`training with vendors' trainers on ${testDb}`, { timeout: 180_000 }, () => {
  const local = new ScriptedTrainer();
  const replicate = new FakeReplicateTrainer();
  const replicateImages = new RecordingTextToImage();
  const env = useTestEnv({
    env: {
      WELCOME_CREDITS: '500',
      REPLICATE_API_TOKEN: 'r8_test_token',
      REPLICATE_WEBHOOK_SECRET: webhookSecret,
      REPLICATE_TRAINING_OWNER: 'lumina-test',
      GENERATION_RETRY_LIMIT: '1',
      GENERATION_RETRY_DELAY_SECONDS: '0',
    },
    inject: {
      adapters: {
        local: { trainer: local },
        replicate: { trainer: replicate, textToImage: replicateImages },
      },
    },
  });
  const alice = useSignedIn(env, 'alice');

  const chargesOf = (jobId: string) => jobCharges(env, alice, jobId);

  it('refunds exactly once when the trainer refuses, and marks the model failed with why', async () => {
    const setId = (await uploadTrainingSet(env, alice, 5)).id;
    local.script.push(async () => {
      throw new ProviderError(
        'bad photos',
        'rejected',
        'The trainer could not find a subject in these photos.',
      );
    });
    const before = await balanceOf(alice);
    const started = (await alice.call('POST', '/api/train_model', { set_id: setId, name: 'Refused' })).json();
    const job = await waitForJob(alice, started.job_id, 'failed');
    expect(job).toMatchObject({ refunded: true });
    expect(await chargesOf(started.job_id)).toEqual([-started.cost, started.cost]);
    expect(await balanceOf(alice)).toBe(before);
    expect(await myModel(alice, started.model.id)).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('could not find a subject'),
    });
  });

  it('retries a trainer that keeps failing, then refunds exactly once', async () => {
    const setId = (await uploadTrainingSet(env, alice, 5)).id;
    const flaky = async () => {
      throw new ProviderError('503', 'transient', 'The trainer is busy; try again in a moment.');
    };
    local.script.push(flaky, flaky);
    const calls = local.calls;
    const started = (await alice.call('POST', '/api/train_model', { set_id: setId, name: 'Flaky' })).json();
    await waitForJob(alice, started.job_id, 'failed');
    expect(local.calls - calls).toBe(2);
    expect(await chargesOf(started.job_id)).toEqual([-started.cost, started.cost]);
    expect(await myModel(alice, started.model.id)).toMatchObject({
      status: 'failed',
      error:
        'The provider kept failing and could not finish this job after 2 tries. Your credits were refunded.',
    });
  });

  it('resumes a retried training at the vendor instead of paying for a second one', async () => {
    const setId = (await uploadTrainingSet(env, alice, 5)).id;
    const resumedWith: Array<string | undefined> = [];
    local.script.push(
      async (_request, ctx) => {
        await ctx.onSubmitted('local-run-resume');
        throw new ProviderError('connection reset', 'transient', 'The trainer could not be reached.');
      },
      async (_request, ctx) => {
        resumedWith.push(ctx.resumeRequestId);
        return weights('local/aurora', ctx.resumeRequestId ?? 'fresh');
      },
    );
    const started = (await alice.call('POST', '/api/train_model', { set_id: setId, name: 'Resumed' })).json();
    await waitForJob(alice, started.job_id);
    expect(resumedWith).toEqual(['local-run-resume']);
    expect(await chargesOf(started.job_id)).toEqual([-started.cost]);
    expect(await myModel(alice, started.model.id)).toMatchObject({ status: 'ready' });
  });

  it('shows the trainer’s progress live, and cancels a running training at the vendor', async () => {
    const setId = (await uploadTrainingSet(env, alice, 5)).id;
    local.script.push(async (_request, ctx) => {
      await ctx.onSubmitted('local-run-1');
      await ctx.onProgress({ status: 'running', percent: 40, message: 'step 200/500' });
      return untilAborted(ctx);
    });
    const started = (await alice.call('POST', '/api/train_model', { set_id: setId, name: 'Stopped' })).json();
    await eventually(async () => {
      const job = await jobView(alice, started.job_id);
      return job?.percent === 40 && job.message === 'step 200/500' ? job : undefined;
    });
    const cancelled = (await alice.call('DELETE', `/api/jobs/${started.job_id}`)).json();
    // The scripted vendor confirms it had not started the real work: refunded.
    expect(cancelled).toMatchObject({ status: 'cancelled', refunded: true });
    expect(local.cancelled).toEqual(['local-run-1']);
    expect(await chargesOf(started.job_id)).toEqual([-started.cost, started.cost]);
    expect(await myModel(alice, started.model.id)).toMatchObject({ status: 'cancelled' });
  });

  it('finishes a Replicate training once however often its webhook is replayed, then generates with it', async () => {
    const setId = (await uploadTrainingSet(env, alice, 6)).id;
    const res = await alice.call('POST', '/api/train_replicate', {
      set_id: setId,
      name: 'Anna',
      trigger_word: 'ohwx_anna',
      subject: 'person',
      steps: 1000,
    });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json();
    expect(started.cost).toBe(100);
    expect(started.model).toMatchObject({ trainer_model: 'flux-dev-lora-replicate', provider: 'replicate' });
    await eventually(async () => ((await jobView(alice, started.job_id))?.percent === 10 ? true : undefined));
    expect(replicate.submitted).toHaveLength(1);
    expect(replicate.submitted[0]).toMatchObject({
      providerModel: expect.stringMatching(/^ostris\/flux-dev-lora-trainer:[0-9a-f]{64}$/),
      triggerWord: 'ohwx_anna',
      subject: 'person',
      steps: 1000,
      destination: `lumina-test/lumina-${started.model.id}`,
      baseProviderModel: 'black-forest-labs/flux-dev',
    });
    expect(replicate.submitted[0]!.images).toHaveLength(6);
    // The vendor has the photos now: deleting the set does not stop (or refund) the training.
    expect((await alice.call('DELETE', `/api/training_sets/${setId}`)).statusCode).toBe(200);

    const delivery = replicateWebhook('r8-training-1', 'succeeded');
    const statuses = await Promise.all(
      Array.from({ length: 5 }, () =>
        env.app
          .inject({ method: 'POST', url: '/api/webhooks/replicate', ...delivery })
          .then((r) => r.statusCode),
      ),
    );
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    await waitForJob(alice, started.job_id, 'succeeded', 20_000);
    // Later replays find nothing to do either.
    for (let i = 0; i < 5; i++) {
      const late = replicateWebhook('r8-training-1', 'succeeded');
      expect(
        (await env.app.inject({ method: 'POST', url: '/api/webhooks/replicate', ...late })).statusCode,
      ).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 1500));
    expect(replicate.submitted).toHaveLength(1);
    expect(replicate.resumed).toBeGreaterThanOrEqual(1);
    expect(await chargesOf(started.job_id)).toEqual([-100]);
    expect(await jobView(alice, started.job_id)).toMatchObject({ status: 'succeeded', refunded: false });
    const model = await myModel(alice, started.model.id);
    expect(model).toMatchObject({ status: 'ready', error: null });
    const weightsKey = (await findModel(env.container.database.db, model!.id))!.weightsKey!;
    expect(weightsKey).toMatch(
      new RegExp(`^models/${alice.userId}/${model!.id}/[0-9a-f-]{36}/lora.safetensors$`),
    );
    expect(await env.container.storage.exists(weightsKey)).toBe(true);

    // Generating with it: the trained version, our copy of the weights, the trigger word in front.
    const generated = await alice.call('POST', '/api/prompt', {
      text: 'portrait in soft light',
      model: model!.id,
      lora_scale: 0.8,
      aspect_ratio: '3:4',
    });
    expect(generated.statusCode, generated.body).toBe(202);
    await waitForJob(alice, generated.json().job_id);
    const sent = replicateImages.requests.at(-1)!;
    expect(sent).toMatchObject({
      providerModel: `lumina-test/lumina-${model!.id}:${'a'.repeat(64)}`,
      prompt: 'ohwx_anna portrait in soft light',
      loraScale: 0.8,
      lora: { scale: 0.8 },
    });
    const url = new URL(sent.lora!.url);
    expect(url.protocol).toMatch(/^https?:$/);
    const fetched = await env.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(fetched.rawPayload.toString()).toBe('LORA-WEIGHTS');
    // A prompt that already names the trigger word is sent as written.
    await waitForJob(
      alice,
      (await alice.call('POST', '/api/prompt', { text: 'OHWX_ANNA on a bike', model: model!.id })).json()
        .job_id,
    );
    expect(replicateImages.requests.at(-1)).toMatchObject({
      prompt: 'OHWX_ANNA on a bike',
      lora: { scale: 1 },
    });
  });
});
