import type { ImageView, ToolRunView, VideoView } from '@lumina/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { signedInClient, waitForJob, type Client } from '../../../test/support/api.ts';
import { postForm } from '../../../test/support/multipart.ts';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .png()
    .toBuffer();

const runsOf = async (client: Client, query = '') => {
  const res = await client.call('GET', `/api/tools/runs${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: ToolRunView[]; next_cursor: string | null };
};

describe(`Studio runs and saved videos on ${testDb}`, { timeout: 180_000 }, () => {
  let env: TestEnv;
  let alice: Client;
  let bob: Client;
  let operator: Client;
  let editJob: string;
  let upscaleJob: string;
  let animateJob: string;
  let upload: ImageView;

  beforeAll(async () => {
    env = await startTestEnv({ env: { WELCOME_CREDITS: '60', ADMIN_EMAILS: 'Ops@Lumina.test' } });
    alice = await signedInClient(env, 'alice');
    bob = await signedInClient(env, 'bob');
    operator = await signedInClient(env, 'ops', { email: 'ops@lumina.test' });

    const edit = await postForm(env, alice, '/api/generate/falai/edit_image_file', {
      image_file: { filename: 'wide.png', bytes: await png(320, 180), contentType: 'image/png' },
      prompt: 'warmer golden light',
      strength: '0.7',
      seed: '42',
    });
    expect(edit.statusCode, edit.body).toBe(202);
    editJob = edit.json().job_id;
    await waitForJob(alice, editJob);
    upload = ((await alice.call('GET', '/api/images?kind=upload')).json().items as ImageView[])[0]!;

    const upscale = await alice.call('POST', '/api/upscale/', { image_id: upload.id, factor: 2 });
    expect(upscale.statusCode, upscale.body).toBe(202);
    upscaleJob = upscale.json().job_id;
    await waitForJob(alice, upscaleJob);

    const animate = await alice.call('POST', '/api/animate', {
      image_id: upload.id,
      prompt: 'slow pan',
      duration: 5,
    });
    expect(animate.statusCode, animate.body).toBe(202);
    animateJob = animate.json().job_id;
    await waitForJob(alice, animateJob, 'succeeded', 120_000);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('lists a run with its inputs, settings and outputs, per tool, newest first', async () => {
    const edits = await runsOf(alice, '?tool=edit');
    expect(edits.items).toHaveLength(1);
    const [run] = edits.items;
    expect(run).toMatchObject({
      id: editJob,
      tool: 'edit',
      status: 'succeeded',
      cost: 1,
      refunded: false,
      settings: { prompt: 'warmer golden light', strength: 0.7, seed: 42, factor: null },
      video: null,
    });
    expect(run!.inputs.map((i) => i?.id)).toEqual([upload.id]);
    expect(run!.inputs[0]).toMatchObject({ kind: 'upload', width: 320, height: 180, is_own: true });
    expect(run!.outputs).toHaveLength(1);
    expect(run!.outputs[0]).toMatchObject({ kind: 'edit', width: 320, height: 180 });
    // The output's URL is a real, signed file.
    expect((await env.app.inject({ method: 'GET', url: run!.outputs[0]!.url })).statusCode).toBe(200);

    const all = await runsOf(alice);
    expect(all.items.map((r) => r.id)).toEqual([animateJob, upscaleJob, editJob]);
    expect(all.items[1]).toMatchObject({ tool: 'upscale', settings: { factor: 2 } });
    expect(all.items[1]!.outputs[0]).toMatchObject({ width: 640, height: 360 });
  });

  it('shows an animate run with its video and pages with a cursor', async () => {
    const [run] = (await runsOf(alice, '?tool=animate')).items;
    expect(run).toMatchObject({ id: animateJob, settings: { prompt: 'slow pan', duration: 5 }, outputs: [] });
    expect(run!.video).toMatchObject({ id: animateJob, status: 'succeeded', is_saved: false });
    expect(run!.video!.source_image?.id).toBe(upload.id);

    const first = await runsOf(alice, '?limit=2');
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await runsOf(alice, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((r) => r.id)).toEqual([editJob]);
    expect(second.next_cursor).toBeNull();
  });

  it("never shows one person's runs to another, and refuses bad queries and anonymous callers", async () => {
    expect((await runsOf(bob)).items).toEqual([]);
    expect((await runsOf(bob, '?tool=edit')).items).toEqual([]);
    // Alice's cursor gives Bob nothing of hers either.
    const page = await runsOf(alice, '?limit=1');
    expect((await runsOf(bob, `?cursor=${page.next_cursor}`)).items).toEqual([]);

    expect((await alice.call('GET', '/api/tools/runs?tool=paint')).statusCode).toBe(400);
    expect((await alice.call('GET', '/api/tools/runs?limit=0')).statusCode).toBe(400);
    expect((await alice.call('GET', '/api/tools/runs?cursor=nonsense')).statusCode).toBe(400);
    expect((await env.app.inject({ method: 'GET', url: '/api/tools/runs' })).statusCode).toBe(401);
  });

  it('saves and unsaves a finished video for its owner only, and filters saved videos', async () => {
    const saved = await alice.call('PUT', `/api/animate/videos/${animateJob}/save`);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ id: animateJob, is_saved: true });
    expect((saved.json() as VideoView).source_image?.id).toBe(upload.id);

    const onlySaved = (await alice.call('GET', '/api/animate/videos?is_saved=true')).json()
      .items as VideoView[];
    expect(onlySaved.map((v) => v.id)).toEqual([animateJob]);
    expect((await alice.call('GET', '/api/animate/videos?is_saved=false')).json().items).toEqual([]);

    // Bob can neither save nor unsave it, and learns nothing about it (404, like a missing one).
    expect((await bob.call('PUT', `/api/animate/videos/${animateJob}/save`)).statusCode).toBe(404);
    expect((await bob.call('DELETE', `/api/animate/videos/${animateJob}/save`)).statusCode).toBe(404);
    // Another kind of job is not a video.
    expect((await alice.call('PUT', `/api/animate/videos/${editJob}/save`)).statusCode).toBe(404);
    expect((await alice.call('PUT', '/api/animate/videos/not-a-uuid/save')).statusCode).toBe(400);

    const unsaved = await alice.call('DELETE', `/api/animate/videos/${animateJob}/save`);
    expect(unsaved.json()).toMatchObject({ is_saved: false });
    expect((await alice.call('GET', '/api/animate/videos?is_saved=true')).json().items).toEqual([]);
  });

  it('shows a deleted input as null and a deleted output as gone, without losing the run', async () => {
    const [edit] = (await runsOf(alice, '?tool=edit')).items;
    expect((await alice.call('DELETE', `/api/images/${edit!.outputs[0]!.id}`)).statusCode).toBe(200);
    expect((await alice.call('DELETE', `/api/images/${upload.id}`)).statusCode).toBe(200);
    const [after] = (await runsOf(alice, '?tool=edit')).items;
    expect(after).toMatchObject({ id: editJob, inputs: [null], outputs: [] });
    const [video] = (await alice.call('GET', '/api/animate/videos')).json().items as VideoView[];
    expect(video).toMatchObject({ source_image_id: upload.id, source_image: null });
  });

  it('tells the web whether the signed-in person is an operator (ADMIN_EMAILS, any case)', async () => {
    expect((await operator.call('GET', '/api/user')).json()).toMatchObject({ is_operator: true });
    expect((await alice.call('GET', '/api/user')).json()).toMatchObject({ is_operator: false });
  });
});
