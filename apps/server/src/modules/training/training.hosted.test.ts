import { creditsFor, type JobView, type TrainingUploadResult } from '@lumina/contracts';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FAL_LORA_MODEL, FAL_TRAINER, startFalFake } from '../../../test/fakes/fal-server.ts';
import { FLUX_LORA_TRAINER, startReplicateFake } from '../../../test/fakes/replicate-server.ts';
import { testDb, useTestEnv, type TestEnv } from '../../../test/harness.ts';
import { balanceOf, eventually, jobView, useSignedIn, waitForJob } from '../../../test/support/api.ts';
import { useFakeVendor } from '../../../test/support/vendor-adapters.ts';
import { findModel } from './training.repository.ts';
import { jobCharges, myModel, uploadTrainingSet } from './training.test-helpers.ts';

/**
 * Training on the hosted vendors through the whole product: photos uploaded as a set → the train
 * routes → the paid job → the REAL FalTrainer / ReplicateTrainer and their official SDKs → the fake
 * vendor servers on 127.0.0.1 → the weights copied into our storage → generating with the model, the
 * vendor fetching our signed weights URL → the image listed under the model. The app listens on a real
 * port, so PUBLIC_URL and WEBHOOK_BASE_URL point at it and the fakes can reach us.
 */

/** The bytes behind one of our URLs (signed, absolute or relative), read through the app. */
async function bytesAt(env: TestEnv, url: string): Promise<Buffer> {
  const { pathname, search } = new URL(url, 'http://lumina.invalid');
  const res = await env.app.inject({ method: 'GET', url: pathname + search });
  expect(res.statusCode, url).toBe(200);
  return res.rawPayload;
}

/** The set's photos as we store them, in order: what a trainer must receive. */
const photosOf = (env: TestEnv, set: TrainingUploadResult) =>
  Promise.all(set.photos.map((p) => bytesAt(env, p.url)));

/** The entries of a training zip, in order. */
const unzipped = (zip: Buffer) =>
  Object.entries(unzipSync(new Uint8Array(zip))).map(([name, bytes]) => ({
    name,
    bytes: Buffer.from(bytes),
  }));

async function weightsOf(env: TestEnv, modelId: string): Promise<Buffer> {
  const row = await findModel(env.container.database.db, modelId);
  const object = await env.container.storage.get(row!.weightsKey!);
  return Buffer.concat(await object.body.toArray());
}

describe(`training on fal.ai end to end on ${testDb}`, { timeout: 120_000 }, () => {
  const fal = useFakeVendor(() => startFalFake());
  const env = useTestEnv(() => ({
    listen: true,
    env: {
      WELCOME_CREDITS: '500',
      TRAINER: 'fal',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      FAL_WEBHOOK_JWKS_URL: fal.jwksUrl,
      PROVIDER_POLL_INTERVAL_MS: '40',
      GENERATION_RETRY_LIMIT: '2',
      GENERATION_RETRY_DELAY_SECONDS: '0',
    },
  }));
  const alice = useSignedIn(env, 'alice');

  it('uploads a set, trains a LoRA with progress, keeps its weights, and generates with it', async () => {
    const set = await uploadTrainingSet(env, alice, 6);
    fal.scenario({ queuedPolls: 2, runningPolls: 10 });
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/train_model', {
      set_id: set.id,
      name: 'Anna on fal',
      trigger_word: 'ohwx_anna',
      subject: 'person',
      base_model: 'flux-lora-fast',
      steps: 500,
    });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json();
    const cost = creditsFor({ capability: 'train', creditCost: 80, steps: 500 });
    expect(started).toMatchObject({ cost, balance: before - cost });
    expect(started.model).toMatchObject({
      provider: 'fal',
      trainer_model: 'flux-lora-fast',
      status: 'training',
    });

    const seen: JobView[] = [];
    const job = await eventually(
      async () => {
        const view = await jobView(alice, started.job_id);
        if (view) seen.push(view);
        return view?.status === 'succeeded' || view?.status === 'failed' ? view : undefined;
      },
      60_000,
      'the fal training to end',
    );
    expect(job).toMatchObject({ status: 'succeeded', kind: 'train', percent: 100, refunded: false });
    // fal's log lines ("step i/N") became live progress on the way.
    expect(seen.some((v) => v.status === 'running' && (v.percent ?? 0) > 0 && (v.percent ?? 0) < 100)).toBe(
      true,
    );
    expect(seen.some((v) => /^step \d+\/10$/.test(v.message ?? ''))).toBe(true);

    // fal received one training: our trigger word and steps, and a zip of exactly the set's photos.
    const trainings = [...fal.requests.values()].filter((r) => r.endpoint === FAL_TRAINER);
    expect(trainings).toHaveLength(1);
    const [training] = trainings;
    expect(training!.input).toMatchObject({ trigger_word: 'ohwx_anna', steps: 500, create_masks: true });
    expect(training!.webhookUrl).toBe(`${env.baseUrl}/api/webhooks/fal`);
    const zip = unzipped(fal.upload(training!.input.images_data_url)!.bytes!);
    expect(zip.map((e) => e.name)).toEqual(set.photos.map((_, i) => `photo-0${i + 1}.jpg`));
    const stored = await photosOf(env, set);
    expect(zip.map((e, i) => e.bytes.equals(stored[i]!))).toEqual(stored.map(() => true));

    // Ready, charged once, and the LoRA is our own copy of fal's bytes.
    const model = await myModel(alice, started.model.id);
    expect(model).toMatchObject({ status: 'ready', error: null, trigger_word: 'ohwx_anna', steps: 500 });
    expect(await jobCharges(env, alice, started.job_id)).toEqual([-cost]);
    expect((await weightsOf(env, model!.id)).equals(fal.loraBytes(training!.requestId))).toBe(true);

    // Generating with it: fal-ai/flux-lora with our signed weights URL, which fal fetched from us.
    const generated = await alice.call('POST', '/api/prompt', {
      text: 'portrait by a window',
      model: model!.id,
      lora_scale: 0.7,
      aspect_ratio: '1:1',
    });
    expect(generated.statusCode, generated.body).toBe(202);
    const genJob = await waitForJob(alice, generated.json().job_id);
    const [request] = [...fal.requests.values()].filter((r) => r.endpoint === FAL_LORA_MODEL);
    expect(request!.input).toMatchObject({
      prompt: 'ohwx_anna portrait by a window',
      loras: [{ path: expect.stringMatching(new RegExp(`^${env.baseUrl}/`)), scale: 0.7 }],
    });
    const fetched = await request!.loraFetches!;
    expect(fetched).toEqual([
      {
        index: 0,
        path: (request!.input.loras as Array<{ path: string }>)[0]!.path,
        status: 200,
        bytes: fal.loraBytes(training!.requestId).length,
      },
    ]);

    const byModel = (await alice.call('GET', `/api/images/models/${model!.id}`)).json();
    expect(byModel.items.map((i: { id: string }) => i.id)).toEqual(genJob.image_ids);
    expect(byModel.items[0]).toMatchObject({ model: model!.id, provider: 'fal', lora_scale: 0.7 });
  });

  it('marks the model failed and refunds exactly once when fal’s trainer keeps failing', async () => {
    const set = await uploadTrainingSet(env, alice, 5);
    fal.defaultScenario = { queuedPolls: 0, runningPolls: 1, outcome: 'model-error' };
    const submitsBefore = [...fal.requests.values()].filter((r) => r.endpoint === FAL_TRAINER).length;
    const before = await balanceOf(alice);
    const started = (
      await alice.call('POST', '/api/train_model', {
        set_id: set.id,
        name: 'Doomed',
        base_model: 'flux-lora-fast',
        steps: 250,
      })
    ).json();
    const job = await waitForJob(alice, started.job_id, 'failed');
    expect(job).toMatchObject({ refunded: true });
    expect(await jobCharges(env, alice, started.job_id)).toEqual([-started.cost, started.cost]);
    expect(await balanceOf(alice)).toBe(before);
    expect(await myModel(alice, started.model.id)).toMatchObject({
      status: 'failed',
      error: expect.any(String),
    });
    const submits =
      [...fal.requests.values()].filter((r) => r.endpoint === FAL_TRAINER).length - submitsBefore;
    // Each of the 3 tries (GENERATION_RETRY_LIMIT 2) found the last request failed and submitted afresh.
    expect(submits).toBe(3);
    expect(job.error).toMatch(/after 3 tries/);
    // Nothing later changes it: still one refund.
    await new Promise((r) => setTimeout(r, 500));
    expect(await jobCharges(env, alice, started.job_id)).toEqual([-started.cost, started.cost]);
  });
});

describe(`training on Replicate end to end on ${testDb}`, { timeout: 120_000 }, () => {
  const replicate = useFakeVendor(() => startReplicateFake());
  const env = useTestEnv(() => ({
    listen: true,
    env: {
      WELCOME_CREDITS: '500',
      REPLICATE_API_TOKEN: replicate.token,
      REPLICATE_BASE_URL: `${replicate.url}/v1`,
      REPLICATE_WEBHOOK_SECRET: replicate.webhookSecret,
      REPLICATE_TRAINING_OWNER: 'lumina-test',
      // The poller looks once, then sleeps a minute: only the webhook can finish a training in time.
      PROVIDER_POLL_INTERVAL_MS: '60000',
      GENERATION_RETRY_LIMIT: '1',
      GENERATION_RETRY_DELAY_SECONDS: '0',
    },
  }));
  const alice = useSignedIn(env, 'alice');

  it('trains into a new destination model, finishes once on a webhook replayed 5 times, and generates with the version', async () => {
    const set = await uploadTrainingSet(env, alice, 7);
    replicate.scenario({ startingPolls: 1, processingPolls: 1 });
    const res = await alice.call('POST', '/api/train_replicate', {
      set_id: set.id,
      name: 'Anna on Replicate',
      trigger_word: 'ohwx_anna',
      subject: 'person',
      steps: 1000,
    });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json();
    expect(started.cost).toBe(100);
    const destination = `lumina-test/lumina-${started.model.id}`;

    const training = await eventually(async () => {
      const [found] = [...replicate.trainings.values()].filter((t) => t.destination === destination);
      return found && found.polls > 0 ? found : undefined;
    });
    expect(replicate.models.get(destination)).toMatchObject({ owner: 'lumina-test', visibility: 'private' });
    expect(training).toMatchObject({
      model: FLUX_LORA_TRAINER,
      input: { trigger_word: 'ohwx_anna', steps: 1000 },
      webhook: `${env.baseUrl}/api/webhooks/replicate`,
    });
    const zip = unzipped(replicate.upload(training.input.input_images)!.bytes);
    const stored = await photosOf(env, set);
    expect(zip.map((e) => e.name)).toEqual(set.photos.map((_, i) => `photo-0${i + 1}.jpg`));
    expect(zip.map((e, i) => e.bytes.equals(stored[i]!))).toEqual(stored.map(() => true));

    // Replicate finishes the training; the poller will not look for a minute. The webhook, 5 times at once.
    training.scenario = { startingPolls: 0, processingPolls: 0 };
    const statuses = await Promise.all(Array.from({ length: 5 }, () => replicate.sendWebhook(training.id)));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    await waitForJob(alice, started.job_id, 'succeeded', 20_000);
    for (let i = 0; i < 5; i++) expect(await replicate.sendWebhook(training.id)).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));

    expect([...replicate.trainings.values()].filter((t) => t.destination === destination)).toHaveLength(1);
    expect(await jobCharges(env, alice, started.job_id)).toEqual([-100]);
    expect(await jobView(alice, started.job_id)).toMatchObject({ status: 'succeeded', refunded: false });
    const model = await myModel(alice, started.model.id);
    expect(model).toMatchObject({ status: 'ready', error: null });
    expect((await weightsOf(env, model!.id)).equals(replicate.weightsBytes(training.id))).toBe(true);
    const version = (replicate.snapshot(training.id).output as { version: string }).version;
    expect(version).toMatch(new RegExp(`^${destination}:[0-9a-f]{64}$`));

    // Generating with it: a prediction by the trained version, with lora_scale and the trigger word.
    replicate.scenario({ startingPolls: 0, processingPolls: 0 });
    const generated = await alice.call('POST', '/api/prompt', {
      text: 'portrait in soft light',
      model: model!.id,
      lora_scale: 0.8,
      aspect_ratio: '3:4',
    });
    expect(generated.statusCode, generated.body).toBe(202);
    const genJob = await waitForJob(alice, generated.json().job_id, 'succeeded', 20_000);
    const [prediction] = [...replicate.predictions.values()].filter(
      (p) => p.version === version.split(':')[1],
    );
    expect(prediction).toMatchObject({
      model: destination,
      input: { prompt: 'ohwx_anna portrait in soft light', lora_scale: 0.8 },
    });
    const byModel = (await alice.call('GET', `/api/images/models/${model!.id}`)).json();
    expect(byModel.items.map((i: { id: string }) => i.id)).toEqual(genJob.image_ids);
  });

  it('marks the model failed with the trainer’s reason and refunds exactly once when Replicate’s training fails, without paying for a retry', async () => {
    const set = await uploadTrainingSet(env, alice, 5);
    // Every training fails at its first look.
    replicate.defaultScenario = { startingPolls: 0, processingPolls: 0, outcome: 'failed' };
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/train_replicate', {
      set_id: set.id,
      name: 'Faceless',
      steps: 250,
    });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json();
    const job = await waitForJob(alice, started.job_id, 'failed', 20_000);
    expect(job).toMatchObject({ refunded: true });
    expect(await jobCharges(env, alice, started.job_id)).toEqual([-started.cost, started.cost]);
    expect(await balanceOf(alice)).toBe(before);
    expect(await myModel(alice, started.model.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^The trainer could not train on these photos: /),
    });
    // A failed training is not tried again (it would fail the same way, at our cost).
    const destination = `lumina-test/lumina-${started.model.id}`;
    expect([...replicate.trainings.values()].filter((t) => t.destination === destination)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await jobCharges(env, alice, started.job_id)).toEqual([-started.cost, started.cost]);
  });
});
