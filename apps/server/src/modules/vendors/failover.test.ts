import { eq } from 'drizzle-orm';
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
  prompt,
  signedInClient,
  uniquePrompt,
  waitForJob,
  type Client,
} from '../../../test/support/api.ts';
import { images, jobs } from '../../db/schema/index.ts';
import { fakeClock } from '../auth/auth.test-helpers.ts';
import { postForm } from '../../../test/support/multipart.ts';
import sharp from 'sharp';

/**
 * Failover through the whole pipeline: HTTP → one charge → worker → fal.ai fake fails (a temporary
 * problem, a timeout, a refusal) → the job moves to the model's alternate (the Replicate fake, or the
 * local engine) or not → the record says who made it and why; and each vendor's circuit breaker,
 * kept in the database, as the pipeline, /api/ready and the operator routes see it.
 */

/** fal's FLUX schnell with Replicate's as its alternate; fal's FLUX dev with the local engine's. */
const MODELS_JSON = JSON.stringify([
  {
    id: 'flux-schnell',
    alternates: [{ provider: 'replicate', providerModel: 'black-forest-labs/flux-schnell' }],
  },
  { id: 'flux-dev', alternates: [{ provider: 'local', providerModel: 'local/aurora' }] },
  { id: 'fal-flux-edit', alternates: [{ provider: 'local', providerModel: 'local/edit' }] },
]);
const BREAKER_FAILURES = 3;
const COOLDOWN_SECONDS = 60;

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

describe(`failover between vendors on ${testDb}`, { timeout: 90_000 }, () => {
  let env: TestEnv;
  let alice: Client;
  let operator: Client;
  let clock: ReturnType<typeof fakeClock>;
  const breaker = () => env.container.services.vendors.breaker;

  beforeAll(async () => {
    env = await startTestEnv({
      listen: true,
      env: {
        WELCOME_CREDITS: '1000',
        FAL_KEY: fal.key,
        FAL_BASE_URL: fal.url,
        FAL_WEBHOOK_JWKS_URL: fal.jwksUrl,
        REPLICATE_API_TOKEN: replicate.token,
        REPLICATE_BASE_URL: `${replicate.url}/v1`,
        REPLICATE_WEBHOOK_SECRET: replicate.webhookSecret,
        PROVIDER_POLL_INTERVAL_MS: '40',
        // The adapters' own deadline (its minimum): a vendor that never answers times out in 10 s.
        PROVIDER_TIMEOUT_SECONDS: '10',
        GENERATION_RETRY_LIMIT: '2',
        GENERATION_RETRY_DELAY_SECONDS: '0',
        MODELS_JSON,
        VENDOR_BREAKER_FAILURES: String(BREAKER_FAILURES),
        VENDOR_BREAKER_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
        ADMIN_EMAILS: 'ops@example.test',
      },
    });
    clock = fakeClock(env);
    alice = await signedInClient(env, 'alice');
    operator = await signedInClient(env, 'ops', { email: 'ops@example.test' });
  });
  afterAll(() => env?.close());
  afterEach(async () => {
    fal.reset();
    replicate.reset();
    for (const vendor of ['local', 'fal', 'replicate']) await breaker().reset(vendor);
  });

  it('the first vendor answers: no move, one charge, the record names it', async () => {
    const text = uniquePrompt('a calm harbour');
    fal.scenario({ queuedPolls: 0, runningPolls: 1 });
    const { job_id: jobId } = await prompt(alice, { text, model: 'flux-schnell' });
    const job = await waitForJob(alice, jobId);

    expect(job).toMatchObject({ made_by: 'fal.ai', moved: null, refunded: false });
    expect(falRequestsFor(fal, text)).toHaveLength(1);
    expect(predictionsFor(replicate, text)).toHaveLength(0);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    const row = await jobRow(env, jobId);
    expect(row.provider).toBe('fal');
    expect(row.vendorAttempts.map((a) => [a.vendor, a.outcome])).toEqual([['fal', 'succeeded']]);
  });

  it('a temporary failure at fal.ai moves the job to Replicate at once: Replicate makes the image, charged once', async () => {
    const text = uniquePrompt('a crashing runner');
    fal.scenario({ queuedPolls: 0, runningPolls: 0, outcome: 'model-error' });
    const before = await balanceOf(alice);
    const { job_id: jobId, cost } = await prompt(alice, { text, model: 'flux-schnell' });
    const job = await waitForJob(alice, jobId);

    expect(job.made_by).toBe('Replicate');
    expect(job.moved).toBe('fal.ai had a temporary problem, so Replicate made this image.');
    expect(job.refunded).toBe(false);
    // One fal request (no queue retries spent on it first), then one Replicate prediction.
    expect(falRequestsFor(fal, text)).toHaveLength(1);
    const [prediction] = predictionsFor(replicate, text);
    expect(predictionsFor(replicate, text)).toHaveLength(1);
    expect(await balanceOf(alice)).toBe(before - cost);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });

    const row = await jobRow(env, jobId);
    expect(row).toMatchObject({ provider: 'replicate', providerModel: 'black-forest-labs/flux-schnell' });
    // The request id recorded is Replicate's own: fal's id is never polled at Replicate.
    expect(row.providerRequestId).toBe(prediction!.id);
    expect(row.vendorAttempts.map((a) => [a.vendor, a.outcome])).toEqual([
      ['fal', 'failed'],
      ['replicate', 'succeeded'],
    ]);
    const [image] = await env.container.database.db.select().from(images).where(eq(images.jobId, jobId));
    expect(image).toMatchObject({ provider: 'replicate', modelId: 'flux-schnell' });
  });

  it('a fal.ai request that never answers times out and moves to Replicate; fal.ai is asked to cancel it', async () => {
    const text = uniquePrompt('a vendor that hangs');
    fal.scenario({ queuedPolls: 0, outcome: 'never' });
    const { job_id: jobId } = await prompt(alice, { text, model: 'flux-schnell' });
    const job = await waitForJob(alice, jobId, 'succeeded', 40_000);

    expect(job.moved).toBe('fal.ai did not answer in time, so Replicate made this image.');
    expect(job.made_by).toBe('Replicate');
    expect(falRequestsFor(fal, text)[0]!.cancelled).toBe(true);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    expect((await jobRow(env, jobId)).vendorAttempts.map((a) => a.outcome)).toEqual(['timeout', 'succeeded']);
  }, 60_000);

  it('a tool job moves too: fal.ai’s edit fails, the local editor makes the image, charged once', async () => {
    const photo = await sharp({
      create: { width: 160, height: 120, channels: 3, background: '#3366aa' },
    })
      .png()
      .toBuffer();
    fal.scenario({ queuedPolls: 0, runningPolls: 0, outcome: 'model-error' });
    const before = await balanceOf(alice);
    const res = await postForm(env, alice, '/api/generate/falai/edit_image_file', {
      image_file: { filename: 'street.png', bytes: photo, contentType: 'image/png' },
      prompt: 'warmer evening light',
      model: 'fal-flux-edit',
    });
    expect(res.statusCode, res.body).toBe(202);
    const { job_id: jobId, cost } = res.json() as { job_id: string; cost: number };
    const job = await waitForJob(alice, jobId);
    expect(job).toMatchObject({ kind: 'edit', made_by: 'The local engine' });
    expect(job.moved).toBe('fal.ai had a temporary problem, so the local engine made this image.');
    expect(await balanceOf(alice)).toBe(before - cost);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 0 });
    expect(await jobRow(env, jobId)).toMatchObject({ provider: 'local', providerModel: 'local/edit' });
  });

  it('a refusal does not move: the job fails with fal.ai’s reason and is refunded once', async () => {
    const text = uniquePrompt('something the checker flags');
    fal.scenario({ queuedPolls: 0, runningPolls: 0, outcome: 'content-policy' });
    const before = await balanceOf(alice);
    const { job_id: jobId } = await prompt(alice, { text, model: 'flux-schnell' });
    const job = await waitForJob(alice, jobId, 'failed');

    expect(job.refunded).toBe(true);
    expect(job.moved).toBeNull();
    expect(predictionsFor(replicate, text)).toHaveLength(0);
    expect(await balanceOf(alice)).toBe(before);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
    // A refusal says nothing about the vendor's health.
    expect((await breaker().get('fal')).consecutiveFailures).toBe(0);
  });

  it('cancelling a moved job cancels at the vendor now running it', async () => {
    const text = uniquePrompt('moved then cancelled');
    fal.scenario({ queuedPolls: 0, runningPolls: 0, outcome: 'model-error' });
    // Still waiting at Replicate when cancelled, however often the worker has polled by then, so
    // Replicate confirms it never started and the credits come back (a started run keeps them).
    replicate.scenario({ startingPolls: Number.MAX_SAFE_INTEGER, outcome: 'never' });
    const { job_id: jobId } = await prompt(alice, { text, model: 'flux-schnell' });
    // fal.ai's request id stays on the row for a moment after its failure, until the move clears it.
    const prediction = await eventually(
      async () => {
        const row = await jobRow(env, jobId);
        return row.provider === 'replicate' ? (row.providerRequestId ?? undefined) : undefined;
      },
      20_000,
      'the Replicate prediction',
    );
    expect(predictionsFor(replicate, text)[0]!.id).toBe(prediction);
    expect((await alice.call('DELETE', `/api/jobs/${jobId}`)).statusCode).toBe(200);
    await eventually(async () => (predictionsFor(replicate, text)[0]!.canceled ? true : undefined), 10_000);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
  });

  it(`the breaker opens after ${BREAKER_FAILURES} failures in a row: fal.ai is skipped, /api/ready shows it and stays 200, and it closes after the cool-down`, async () => {
    // Each job fails at fal and is made by the local engine (flux-dev's alternate).
    for (let i = 0; i < BREAKER_FAILURES; i++) {
      const text = uniquePrompt(`failing ${i}`);
      fal.scenario({ queuedPolls: 0, runningPolls: 0, outcome: 'model-error' });
      const { job_id: jobId } = await prompt(alice, { text, model: 'flux-dev' });
      const job = await waitForJob(alice, jobId);
      expect(job.moved).toBe('fal.ai had a temporary problem, so the local engine made this image.');
    }
    expect((await breaker().get('fal')).state).toBe('open');

    const ready = await env.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().status).toBe('ready');
    const vendors = ready.json().vendors as Array<{ name: string; state: string; retry_at: string | null }>;
    expect(vendors.find((v) => v.name === 'fal')).toMatchObject({ state: 'open' });
    expect(vendors.find((v) => v.name === 'fal')!.retry_at).not.toBeNull();
    expect(vendors.find((v) => v.name === 'replicate')).toMatchObject({ state: 'closed' });
    expect(vendors.find((v) => v.name === 'local')).toMatchObject({ state: 'closed' });

    // Open: the next job skips fal without asking it.
    const skipped = uniquePrompt('skipping fal');
    const { job_id: skippedId } = await prompt(alice, { text: skipped, model: 'flux-dev' });
    const skippedJob = await waitForJob(alice, skippedId);
    expect(falRequestsFor(fal, skipped)).toHaveLength(0);
    expect(skippedJob.made_by).toBe('The local engine');
    expect(skippedJob.moved).toBe(
      'fal.ai was skipped because it kept failing, so the local engine made this image.',
    );
    expect(await chargesOf(env, alice, skippedId)).toEqual({ spends: 1, refunds: 0 });

    // After the cool-down: half-open, a job tries fal again, and its success closes the breaker.
    clock.advance((COOLDOWN_SECONDS + 1) * 1000);
    expect((await breaker().get('fal')).state).toBe('half-open');
    const retried = uniquePrompt('fal is back');
    fal.scenario({ queuedPolls: 0, runningPolls: 0 });
    const { job_id: retriedId } = await prompt(alice, { text: retried, model: 'flux-dev' });
    expect(await waitForJob(alice, retriedId)).toMatchObject({ made_by: 'fal.ai', moved: null });
    expect(falRequestsFor(fal, retried)).toHaveLength(1);
    expect(await breaker().get('fal')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('half-open lets one job try at a time; the others skip the vendor until its outcome, or until its lease ends', async () => {
    for (let i = 0; i < BREAKER_FAILURES; i++) await breaker().failed('fal', 'fal: 500', null);
    expect(await breaker().allows('fal')).toBe(false);
    clock.advance((COOLDOWN_SECONDS + 1) * 1000);
    // Two workers asking at once: exactly one gets the trial.
    const asked = await Promise.all([breaker().allows('fal'), breaker().allows('fal')]);
    expect(asked.filter(Boolean)).toHaveLength(1);
    expect(await breaker().allows('fal')).toBe(false);
    expect((await breaker().get('fal')).state).toBe('half-open');
    // The trial's worker died: after a cool-down's length another job may try.
    clock.advance((COOLDOWN_SECONDS + 1) * 1000);
    expect(await breaker().allows('fal')).toBe(true);
    expect(await breaker().allows('fal')).toBe(false);
    // Its success closes the breaker: every job may use the vendor again.
    await breaker().succeeded('fal');
    expect(await Promise.all([breaker().allows('fal'), breaker().allows('fal')])).toEqual([true, true]);
    // A later outage opens it afresh, and its first trial is claimable after the cool-down.
    for (let i = 0; i < BREAKER_FAILURES; i++) await breaker().failed('fal', 'fal: 500', null);
    clock.advance((COOLDOWN_SECONDS + 1) * 1000);
    expect(await breaker().allows('fal')).toBe(true);
  });

  it('a failed try while half-open opens the breaker again for another cool-down', async () => {
    for (let i = 0; i < BREAKER_FAILURES; i++) await breaker().failed('fal', 'fal: 500', null);
    clock.advance((COOLDOWN_SECONDS + 1) * 1000);
    expect((await breaker().get('fal')).state).toBe('half-open');
    await breaker().failed('fal', 'fal: 500 again', null);
    expect((await breaker().get('fal')).state).toBe('open');
  });

  it('when every vendor of a model is open the job fails at once, refunded once, with a clear message', async () => {
    for (let i = 0; i < BREAKER_FAILURES; i++) {
      await breaker().failed('fal', 'fal: 500', null);
      await breaker().failed('replicate', 'replicate: 500', null);
    }
    const text = uniquePrompt('nobody can');
    const before = await balanceOf(alice);
    const { job_id: jobId } = await prompt(alice, { text, model: 'flux-schnell' });
    const job = await waitForJob(alice, jobId, 'failed');
    expect(job.error).toBe(
      'fal.ai and Replicate are failing right now, so this job was not started. Your credits were refunded. Please try again in a few minutes.',
    );
    expect(falRequestsFor(fal, text)).toHaveLength(0);
    expect(predictionsFor(replicate, text)).toHaveLength(0);
    expect(await balanceOf(alice)).toBe(before);
    expect(await chargesOf(env, alice, jobId)).toEqual({ spends: 1, refunds: 1 });
  });

  it('operator vendors page: signed out 401, not an operator 403, an operator sees states, failures and models, and resets', async () => {
    expect((await env.app.inject({ method: 'GET', url: '/api/operator/vendors' })).statusCode).toBe(401);
    const refused = await alice.call('GET', '/api/operator/vendors');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(
      'Only operators of this server can see vendors and reset their breakers.',
    );
    expect((await alice.call('POST', '/api/operator/vendors/fal/reset')).statusCode).toBe(403);
    expect(
      (await env.app.inject({ method: 'POST', url: '/api/operator/vendors/fal/reset' })).statusCode,
    ).toBe(401);

    for (let i = 0; i < BREAKER_FAILURES; i++) await breaker().failed('fal', `fal: 500 number ${i}`, null);
    const page = await operator.call('GET', '/api/operator/vendors');
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json();
    expect(body.breaker).toEqual({ failures: BREAKER_FAILURES, cooldown_seconds: COOLDOWN_SECONDS });
    const falView = body.vendors.find((v: { name: string }) => v.name === 'fal');
    expect(falView).toMatchObject({
      label: 'fal.ai',
      configured: true,
      state: 'open',
      last_error: 'fal: 500 number 2',
    });
    // Newest first, the latest ten kept (earlier tests failed fal too).
    expect(falView.recent_failures.length).toBeLessThanOrEqual(10);
    expect(falView.recent_failures.slice(0, 3).map((f: { error: string }) => f.error)).toEqual([
      'fal: 500 number 2',
      'fal: 500 number 1',
      'fal: 500 number 0',
    ]);
    const schnell = falView.models.find((m: { id: string }) => m.id === 'flux-schnell');
    expect(schnell).toMatchObject({ role: 'primary', provider_model: 'fal-ai/flux/schnell' });
    expect(schnell.vendors.map((v: { provider: string }) => v.provider)).toEqual(['fal', 'replicate']);
    const replicateView = body.vendors.find((v: { name: string }) => v.name === 'replicate');
    expect(replicateView.models.find((m: { id: string }) => m.id === 'flux-schnell')).toMatchObject({
      role: 'alternate',
      provider_model: 'black-forest-labs/flux-schnell',
    });

    const reset = await operator.call('POST', '/api/operator/vendors/fal/reset');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ name: 'fal', state: 'closed', consecutive_failures: 0 });
    expect((await breaker().get('fal')).state).toBe('closed');
    const unknown = await operator.call('POST', '/api/operator/vendors/nobody/reset');
    expect(unknown.statusCode).toBe(400);
  });
});
