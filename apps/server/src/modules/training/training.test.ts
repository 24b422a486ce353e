import { creditsFor, TRIGGER_WORD, type ModelInfo } from '@lumina/contracts';
import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv, type TestEnv } from '../../../test/harness.ts';
import { balanceOf, ledgerOf, useSignedIn, waitForJob, type Client } from '../../../test/support/api.ts';
import { findModel } from './training.repository.ts';
import { myModels, uploadTrainingSet } from './training.test-helpers.ts';
import { TRAINING_TRY_SECONDS } from './train.kind.ts';

/** How long one try of the job's queue entry may run (pg-boss's `expire_in`), in seconds. */
async function queueDeadlineOf(env: TestEnv, jobId: string): Promise<number> {
  const { rows } = await env.container.database.executor.executeSql(
    `SELECT EXTRACT(epoch FROM expire_in)::int AS seconds FROM pgboss.job WHERE name = 'job.run' AND data->>'jobId' = $1`,
    [jobId],
  );
  expect(rows).toHaveLength(1);
  return Number((rows[0] as { seconds: number }).seconds);
}

const modelsAs = async (client: Client | undefined, env: ReturnType<typeof useTestEnv>) => {
  const res = client
    ? await client.call('GET', '/api/models')
    : await env.app.inject({ method: 'GET', url: '/api/models' });
  expect(res.statusCode).toBe(200);
  return res.json().models as ModelInfo[];
};

describe(`training on the local trainer, end to end, on ${testDb}`, { timeout: 180_000 }, () => {
  const env = useTestEnv({ env: { WELCOME_CREDITS: '40' } });
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');

  it('trains, shows progress, becomes ready, and generates with the trained style for its owner only', async () => {
    const setId = (await uploadTrainingSet(env, alice, 8)).id;
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/train_model', {
      set_id: setId,
      name: 'Warm evenings',
      trigger_word: '',
      subject: 'style',
    });
    expect(res.statusCode, res.body).toBe(202);
    const accepted = res.json();
    // The default trainer's default steps, priced by the one price function.
    const cost = creditsFor({ capability: 'train', creditCost: 10, steps: 500 });
    expect(accepted).toMatchObject({ status: 'queued', cost, balance: before - cost });
    expect(accepted.model).toMatchObject({
      name: 'Warm evenings',
      status: 'training',
      subject: 'style',
      trainer_model: 'local-style-trainer',
      base_model: 'local-aurora',
      provider: 'local',
      steps: 500,
      image_count: 8,
      set_id: setId,
      job_id: accepted.job_id,
      cost,
    });
    expect(accepted.model.trigger_word).toMatch(TRIGGER_WORD);

    const job = await waitForJob(alice, accepted.job_id);
    expect(job).toMatchObject({ kind: 'train', model: 'local-style-trainer', percent: 100, refunded: false });
    expect(await balanceOf(alice)).toBe(before - cost);
    const spends = (await ledgerOf(env, alice.userId)).filter((e) => e.reference === `job:${job.id}`);
    expect(spends.map((e) => e.amount)).toEqual([-cost]);

    const [model] = await myModels(alice);
    expect(model).toMatchObject({ id: accepted.model.id, status: 'ready', error: null });
    expect(model!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(model!.cover_url).toMatch(/models\//);
    // The cover is our own copy: it loads.
    expect((await env.app.inject({ method: 'GET', url: model!.cover_url! })).statusCode).toBe(200);

    // GET /api/models: the owner sees it last, as a text-to-image model with their base's sizes and price.
    const listed = await modelsAs(alice, env);
    const mine = listed.at(-1)!;
    expect(mine).toMatchObject({
      id: model!.id,
      display_name: 'Warm evenings',
      provider: 'local',
      capability: 'text-to-image',
      available: true,
      credit_cost: 1,
      supports: { lora_scale: true },
      personal: { trigger_word: model!.trigger_word },
      training: null,
    });
    expect(listed.find((m) => m.id === 'local-style-trainer')).toMatchObject({
      capability: 'train',
      credit_cost: 10,
      training: { min_steps: 500, max_steps: 500, default_steps: 500, base_model: 'local-aurora' },
    });
    expect((await modelsAs(bob, env)).map((m) => m.id)).not.toContain(model!.id);
    expect((await modelsAs(undefined, env)).map((m) => m.id)).not.toContain(model!.id);
    // A session that does not verify is simply anonymous on this public list.
    const stale = await env.app.inject({
      method: 'GET',
      url: '/api/models',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().models.map((m: ModelInfo) => m.id)).not.toContain(model!.id);

    // Generating with it applies the learned style: the same prompt and seed differ from the base model.
    const prompt = { text: 'a quiet harbour at dusk', seed: 77, aspect_ratio: '1:1' };
    const generated = await alice.call('POST', '/api/prompt', {
      ...prompt,
      model: model!.id,
      lora_scale: 1.5,
    });
    expect(generated.statusCode, generated.body).toBe(202);
    const genJob = await waitForJob(alice, generated.json().job_id);
    const plain = await alice.call('POST', '/api/prompt', { ...prompt, model: 'local-aurora' });
    const plainJob = await waitForJob(alice, plain.json().job_id);
    const bytesOf = async (imageId: string) => {
      const image = (await alice.call('GET', `/api/images?job_id=${imageId}`)).json().items[0];
      return (await env.app.inject({ method: 'GET', url: image.url })).rawPayload;
    };
    expect(Buffer.compare(await bytesOf(genJob.id), await bytesOf(plainJob.id))).not.toBe(0);

    const byModel = (await alice.call('GET', `/api/images/models/${model!.id}`)).json();
    expect(byModel.items.map((i: { id: string }) => i.id)).toEqual(genJob.image_ids);
    expect(byModel.items[0]).toMatchObject({ model: model!.id, provider: 'local', lora_scale: 1.5 });
    expect((await bob.call('GET', `/api/images/models/${model!.id}`)).json().items).toEqual([]);
  });

  it('answers another person using your model with 404, as it answers an unknown model', async () => {
    const [model] = await myModels(alice);
    const foreign = await bob.call('POST', '/api/prompt', { text: 'x', model: model!.id });
    const unknownId = '6f1c7a34-2d7e-4b8a-9c1d-0e2f3a4b5c6d';
    const unknown = await bob.call('POST', '/api/prompt', { text: 'x', model: unknownId });
    expect([foreign.statusCode, foreign.json().detail]).toEqual([404, 'This model was not found.']);
    expect([unknown.statusCode, unknown.json().detail]).toEqual([404, 'This model was not found.']);
    expect((await bob.call('PATCH', `/api/my_models/${model!.id}`, { name: 'Mine now' })).statusCode).toBe(
      404,
    );
    expect((await bob.call('DELETE', `/api/my_models/${model!.id}`)).statusCode).toBe(404);
    expect(await myModels(bob)).toEqual([]);
    expect((await myModels(alice))[0]).toMatchObject({ name: 'Warm evenings', status: 'ready' });
  });

  it('renames and deletes a model: its weights go, the images made with it stay', async () => {
    const [model] = await myModels(alice);
    const renamed = await alice.call('PATCH', `/api/my_models/${model!.id}`, { name: '  Golden hour ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: model!.id, name: 'Golden hour' });
    expect((await alice.call('PATCH', `/api/my_models/${model!.id}`, { name: '' })).statusCode).toBe(400);

    const weightsKey = (await findModel(env.container.database.db, model!.id))!.weightsKey!;
    expect(weightsKey).toMatch(
      new RegExp(`^models/${alice.userId}/${model!.id}/[0-9a-f-]{36}/style-profile.json$`),
    );
    expect(await env.container.storage.exists(weightsKey)).toBe(true);
    const imagesBefore = (await alice.call('GET', `/api/images/models/${model!.id}`)).json().items;
    expect((await alice.call('DELETE', `/api/my_models/${model!.id}`)).json()).toEqual({ deleted: true });
    expect(await env.container.storage.exists(weightsKey)).toBe(false);
    expect(await myModels(alice)).toEqual([]);
    expect((await alice.call('GET', `/api/images/models/${model!.id}`)).json().items).toEqual(imagesBefore);
    const gone = await alice.call('POST', '/api/prompt', { text: 'x', model: model!.id });
    expect([gone.statusCode, gone.json().detail]).toEqual([404, 'This model was not found.']);
    expect((await alice.call('DELETE', `/api/my_models/${model!.id}`)).statusCode).toBe(404);
  });
});

describe(`training refusals and cancelling on ${testDb}`, { timeout: 120_000 }, () => {
  // No workers: a training stays queued, so cancelling it is certain to find it unstarted.
  const env = useTestEnv({ workers: false, env: { WELCOME_CREDITS: '40' } });
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');
  const carol = useSignedIn(env, 'carol');

  /** Refused with `status` and a detail matching `detail`, and nothing changed: no model, no job, no charge. */
  async function refused(
    client: Client,
    body: Record<string, unknown>,
    status: number,
    detail: RegExp,
    url = '/api/train_model',
  ) {
    const balance = await balanceOf(client);
    const jobs = (await client.call('GET', '/api/progress')).json().jobs.length;
    const res = await client.call('POST', url, body);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().detail).toMatch(detail);
    expect(await balanceOf(client)).toBe(balance);
    expect((await client.call('GET', '/api/progress')).json().jobs).toHaveLength(jobs);
    return res;
  }

  it('refuses another person’s set, an unknown set, a small set, steps out of bounds and an unknown trainer', async () => {
    const bobsSet = (await uploadTrainingSet(env, bob, 6)).id;
    const small = (await uploadTrainingSet(env, alice, 4)).id;
    const good = (await uploadTrainingSet(env, alice, 5)).id;
    const foreign = await refused(alice, { set_id: bobsSet, name: 'x' }, 404, /training set was not found/);
    const missing = await refused(alice, { set_id: crypto.randomUUID(), name: 'x' }, 404, /not found/);
    expect(foreign.json().detail).toBe(missing.json().detail);
    await refused(alice, { set_id: small, name: 'x' }, 400, /4 photos; training needs 5 to 30/);
    await refused(alice, { set_id: good, name: 'x', steps: 50 }, 400, /always trains for 500 steps/);
    await refused(alice, { set_id: good, name: 'x', steps: 501 }, 400, /always trains for 500 steps/);
    await refused(alice, { set_id: good, name: 'x', base_model: 'no-such-trainer' }, 400, /Unknown trainer/);
    await refused(
      alice,
      { set_id: good, name: 'x', base_model: 'flux-lora-fast' },
      400,
      /FLUX LoRA fast training \(fal\.ai\) is unavailable/,
    );
    await refused(alice, { set_id: good, name: 'x', trigger_word: '1bad word' }, 400, /trigger word/i);
    await refused(alice, { set_id: good, name: 'x' }, 400, /Replicate API token/, '/api/train_replicate');
    expect(await myModels(alice)).toEqual([]);
  });

  it('refuses a training the person cannot afford with 402, adding no model and no job', async () => {
    const setId = (await uploadTrainingSet(env, bob, 5)).id;
    // The local trainer costs 5; leave bob 4.
    await env.container.services.ledger.spend({
      userId: bob.userId,
      amount: (await balanceOf(bob)) - 4,
      reference: 'test:drain',
      reason: 'test',
    });
    await refused(bob, { set_id: setId, name: 'Too dear' }, 402, /Not enough credits: this costs 5/);
    expect(await myModels(bob)).toEqual([]);
  });

  it('gives a training’s queue entry the training deadline, and a generation the generation one', async () => {
    const setId = (await uploadTrainingSet(env, carol, 5)).id;
    const training = (await carol.call('POST', '/api/train_model', { set_id: setId, name: 'Slow' })).json();
    const generation = (
      await carol.call('POST', '/api/prompt', { text: 'a kettle', model: 'local-aurora' })
    ).json();
    // Replicate's 3 h deadline plus time to copy the weights: far past a generation's.
    expect(TRAINING_TRY_SECONDS).toBeGreaterThan(3 * 60 * 60);
    expect(await queueDeadlineOf(env, training.job_id)).toBe(TRAINING_TRY_SECONDS);
    expect(await queueDeadlineOf(env, generation.job_id)).toBe(env.config.generation.timeoutSeconds);
  });

  it('cancels a queued training with a refund, and deleting a training model cancels it', async () => {
    const setId = (await uploadTrainingSet(env, alice, 5)).id;
    const before = await balanceOf(alice);
    const started = (await alice.call('POST', '/api/train_model', { set_id: setId, name: 'One' })).json();
    expect(await balanceOf(alice)).toBe(before - started.cost);
    const cancelled = await alice.call('DELETE', `/api/jobs/${started.job_id}`);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', refunded: true });
    expect(await balanceOf(alice)).toBe(before);
    expect((await myModels(alice)).find((m) => m.id === started.model.id)).toMatchObject({
      status: 'cancelled',
    });

    const second = (
      await alice.call('POST', '/api/train_model', { set_id: setId, name: 'Two', steps: 500 })
    ).json();
    expect(second.cost).toBe(5);
    expect((await alice.call('DELETE', `/api/my_models/${second.model.id}`)).statusCode).toBe(200);
    expect(await balanceOf(alice)).toBe(before);
    expect((await myModels(alice)).map((m) => m.name)).toEqual(['One']);
    const job = (await alice.call('GET', '/api/progress'))
      .json()
      .jobs.find((j: { id: string }) => j.id === second.job_id);
    expect(job).toMatchObject({ status: 'cancelled', refunded: true });
    const refunds = (await ledgerOf(env, alice.userId)).filter((e) => e.reference === `job:${second.job_id}`);
    expect(refunds.map((e) => e.amount)).toEqual([-5, 5]);
  });
});

describe(`an operator's default trainer without its key on ${testDb}`, { timeout: 60_000 }, () => {
  const env = useTestEnv({ workers: false, env: { TRAINER: 'fal' } });
  const alice = useSignedIn(env, 'alice');

  it('lists the hosted trainers as unavailable and refuses training on them, changing nothing', async () => {
    const fal = (await modelsAs(alice, env)).find((m) => m.id === 'flux-lora-fast');
    expect(fal).toMatchObject({ available: false, unavailable_reason: expect.stringMatching(/fal\.ai key/) });
    const setId = (await uploadTrainingSet(env, alice, 5)).id;
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/train_model', { set_id: setId, name: 'Hosted' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/FLUX LoRA fast training \(fal\.ai\) is unavailable/);
    expect(await balanceOf(alice)).toBe(before);
    expect(await myModels(alice)).toEqual([]);

    // TRAINER only picks the default: a trainer the person names is used when it is available.
    const local = await alice.call('POST', '/api/train_model', {
      set_id: setId,
      name: 'Local',
      base_model: 'local-style-trainer',
    });
    expect(local.statusCode, local.body).toBe(202);
    expect(local.json().model).toMatchObject({ provider: 'local', trainer_model: 'local-style-trainer' });
  });
});
