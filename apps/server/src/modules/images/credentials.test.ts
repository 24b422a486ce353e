import type { ImageView, VideoView } from '@lumina/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCredentials, TRAINED_ALGORITHMIC_MEDIA } from '../../adapters/c2pa/c2pa.ts';
import { createImage } from '../../../test/factories.ts';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { signedInClient, waitForJob, type Client } from '../../../test/support/api.ts';
import { solidPng } from '../../../test/support/images.ts';
import { postForm } from '../../../test/support/multipart.ts';

/** Issue 17, content credentials: every output carries a C2PA manifest, kept by every download path. */
describe(`content credentials on ${testDb}`, { timeout: 180_000 }, () => {
  let env: TestEnv;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    env = await startTestEnv({ env: { WELCOME_CREDITS: '20' } });
    alice = await signedInClient(env, 'alice');
    bob = await signedInClient(env, 'bob');
  });
  afterAll(() => env.close());

  const jobImage = async (jobId: string) =>
    ((await alice.call('GET', `/api/images?job_id=${jobId}`)).json().items as ImageView[])[0]!;
  const download = async (url: string) => {
    const res = await env.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };

  it('signs a generated image: the downloaded file reads back as made by AI with the model, vendor and action', async () => {
    const res = await alice.call('POST', '/api/prompt', {
      text: 'a lighthouse at dusk',
      model: 'local-aurora',
      seed: 7,
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(alice, res.json().job_id);
    const image = await jobImage(job.id);

    // The file a download serves, read with the library itself.
    const file = await download(image.url);
    const read = await readCredentials(file);
    expect(read).toMatchObject({
      generator: 'Lumina',
      actions: ['c2pa.created'],
      digitalSourceType: TRAINED_ALGORITHMIC_MEDIA,
      model: 'Aurora · local procedural engine',
      vendor: 'the local engine',
      valid: true,
    });

    const view = await alice.call('GET', `/api/images/${image.id}/credentials`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      present: true,
      made_with_ai: true,
      issuer: 'Lumina Development Signer',
      generator: 'Lumina',
      actions: ['c2pa.created'],
      model: 'Aurora · local procedural engine',
      vendor: 'the local engine',
      ingredients: [],
      valid: true,
      problems: [],
    });

    // Another person's image answers like a missing one; a malformed id is a 400.
    expect((await bob.call('GET', `/api/images/${image.id}/credentials`)).statusCode).toBe(404);
    const signedOut = await env.app.inject({ method: 'GET', url: `/api/images/${image.id}/credentials` });
    expect(signedOut.statusCode).toBe(401);
    const bad = await alice.call('GET', '/api/images/not-an-id/credentials');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/Not an image id/);
  });

  it('signs a tool output as edited from its source image, and the upload itself stays unsigned', async () => {
    const res = await postForm(env, alice, '/api/generate/falai/edit_image_file', {
      image_file: { filename: 'holiday.png', bytes: await solidPng(96, 64), contentType: 'image/png' },
      prompt: 'warmer light',
      seed: '3',
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(alice, res.json().job_id);
    const out = await jobImage(job.id);
    const view = (await alice.call('GET', `/api/images/${out.id}/credentials`)).json();
    expect(view).toMatchObject({
      present: true,
      made_with_ai: true,
      actions: ['c2pa.opened', 'c2pa.edited'],
      digital_source_type: expect.stringMatching(/compositeWithTrainedAlgorithmicMedia$/),
      valid: true,
    });
    expect(view.ingredients).toHaveLength(1);
    expect(view.ingredients[0]).toContain(out.recipe!.source_image_ids[0]);
    // The upload it was made from is kept as it came (camera metadata stripped, no manifest added).
    const source = (
      await alice.call('GET', `/api/images/${out.recipe!.source_image_ids[0]}/credentials`)
    ).json();
    expect(source.present).toBe(false);
    // The same manifest is in the downloaded file.
    expect((await readCredentials(await download(out.url)))?.actions).toEqual(['c2pa.opened', 'c2pa.edited']);
  });

  it('signs an animated video: the downloaded MP4 reads back as edited from its image, for its owner only', async () => {
    const upload = await postForm(env, alice, '/api/images/upload', {
      file: { filename: 'still.png', bytes: await solidPng(96, 64), contentType: 'image/png' },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const sourceId = upload.json().id as string;
    const res = await alice.call('POST', '/api/animate', { image_id: sourceId, prompt: 'slow zoom in' });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().job_id as string;
    await waitForJob(alice, jobId, 'succeeded', 120_000);
    const video = ((await alice.call('GET', '/api/animate/videos')).json().items as VideoView[]).find(
      (v) => v.id === jobId,
    )!;

    // The file a download serves: signed, still the size the listing says, and read back valid.
    const file = await download(video.url!);
    expect(file.length).toBe(video.bytes);
    expect(await readCredentials(file)).toMatchObject({
      actions: ['c2pa.opened', 'c2pa.edited'],
      vendor: 'the local engine',
      valid: true,
    });
    const view = await alice.call('GET', `/api/animate/videos/${jobId}/credentials`);
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json()).toMatchObject({
      present: true,
      made_with_ai: true,
      issuer: 'Lumina Development Signer',
      actions: ['c2pa.opened', 'c2pa.edited'],
      digital_source_type: expect.stringMatching(/compositeWithTrainedAlgorithmicMedia$/),
      valid: true,
      problems: [],
    });
    expect(view.json().ingredients).toEqual([`Lumina image ${sourceId}`]);

    // Another person's video answers like a missing one; an image id is no video; a bad id is a 400.
    expect((await bob.call('GET', `/api/animate/videos/${jobId}/credentials`)).statusCode).toBe(404);
    expect((await alice.call('GET', `/api/animate/videos/${sourceId}/credentials`)).statusCode).toBe(404);
    const signedOut = await env.app.inject({
      method: 'GET',
      url: `/api/animate/videos/${jobId}/credentials`,
    });
    expect(signedOut.statusCode).toBe(401);
    const bad = await alice.call('GET', '/api/animate/videos/nope/credentials');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/Not a video id/);
  });

  it('says plainly when an image has no credentials (older images)', async () => {
    const old = await createImage(env, alice.userId);
    const view = await alice.call('GET', `/api/images/${old.id}/credentials`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({ present: false, made_with_ai: false, valid: false, actions: [] });
  });
});
