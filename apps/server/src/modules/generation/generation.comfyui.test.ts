import { samePixels } from '../../../test/support/images.ts';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeComfy, type FakeComfy } from '../../../test/fakes/comfyui-server.ts';
import { fakePng } from '../../../test/fakes/png.ts';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import {
  balanceOf,
  eventually,
  jobView,
  signedInClient,
  waitForJob,
  type Client,
} from '../../../test/support/api.ts';
import { images, jobs } from '../../db/schema/index.ts';

/**
 * ComfyUI through the whole pipeline: HTTP → charge → queue → worker → ComfyUI adapter → fake ComfyUI
 * (HTTP + WebSocket) on 127.0.0.1 → output stored → image row; the live preview reaches the job view
 * while it runs, for its owner only, and is gone once the job ends.
 */
describe(`ComfyUI through the pipeline on ${testDb}`, { timeout: 90_000 }, () => {
  let comfy: FakeComfy;
  let env: TestEnv;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    comfy = await startFakeComfy({ steps: 40, stepMs: 60 });
    env = await startTestEnv({
      listen: true,
      env: { WELCOME_CREDITS: '100', COMFYUI_URL: comfy.url, PROVIDER_POLL_INTERVAL_MS: '100' },
    });
    [alice, bob] = await Promise.all([signedInClient(env, 'alice'), signedInClient(env, 'bob')]);
  });
  afterAll(async () => {
    await env?.close();
    await comfy?.close();
  });

  it('generates with a ComfyUI model: live preview for the owner only while running, image stored, charged once', async () => {
    const text = `a lighthouse at dusk ${randomBytes(4).toString('hex')}`;
    const before = await balanceOf(alice);
    const res = await alice.call('POST', '/api/prompt', {
      text,
      model: 'comfyui-sdxl',
      negative_text: 'fog',
    });
    expect(res.statusCode, res.body).toBe(202);
    const { job_id: jobId, cost } = res.json() as { job_id: string; cost: number };
    expect(cost).toBe(2);

    const running = await eventually(
      async () => {
        const view = await jobView(alice, jobId);
        return view?.status === 'running' && view.preview_url ? view : undefined;
      },
      30_000,
      'a live preview while the ComfyUI job runs',
    );
    // A signed file URL of the latest frame: a browser's <img> loads it without a session token.
    expect(running.preview_url).toMatch(new RegExp(`^/api/files/previews/${jobId}/\\d+\\?`));
    const preview = await env.app.inject({ method: 'GET', url: running.preview_url! });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(preview.rawPayload).metadata()).format).toBe('jpeg');
    // The API's own preview route answers the owner only; someone else's job reads as missing, and the
    // job is not in their list.
    expect((await alice.call('GET', `/api/jobs/${jobId}/preview`)).statusCode).toBe(200);
    expect((await bob.call('GET', `/api/jobs/${jobId}/preview`)).statusCode).toBe(404);
    expect(await jobView(bob, jobId)).toBeUndefined();

    const done = await waitForJob(alice, jobId, 'succeeded');
    expect(done.preview_url).toBeNull();
    expect((await env.app.inject({ method: 'GET', url: running.preview_url! })).statusCode).toBe(404);
    expect((await alice.call('GET', `/api/jobs/${jobId}/preview`)).statusCode).toBe(404);
    expect(await env.container.storage.deletePrefix(`previews/${jobId}/`)).toBe(0);

    // One prompt at ComfyUI, filled from the request.
    const submitted = comfy.prompts.filter((p) => p.graph['6']!.inputs.text === text);
    expect(submitted).toHaveLength(1);
    expect(submitted[0]!.graph['7']!.inputs.text).toBe('fog');
    const [row] = await env.container.database.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row!.providerRequestId?.startsWith(submitted[0]!.id)).toBe(true);

    const stored = await env.container.database.db.select().from(images).where(eq(images.jobId, jobId));
    expect(stored).toHaveLength(1);
    const list = (await alice.call('GET', '/api/images')).json();
    const image = list.items.find((i: { id: string }) => i.id === done.image_ids[0]);
    expect(image).toMatchObject({ provider: 'comfyui', model: 'comfyui-sdxl', prompt: text });
    const original = await env.app.inject({ method: 'GET', url: image.url });
    expect(original.statusCode).toBe(200);
    expect(await samePixels(original.rawPayload, await fakePng(1024, 1024, 0))).toBe(true);
    expect(await balanceOf(alice)).toBe(before - cost);
  });

  it('fails a job whose workflow errors on the server with its message, refunded', async () => {
    comfy.mode = 'error';
    try {
      const before = await balanceOf(alice);
      const res = await alice.call('POST', '/api/prompt', {
        text: 'an impossible render',
        model: 'comfyui-sdxl',
      });
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitForJob(alice, res.json().job_id as string, 'failed');
      expect(job.error).toContain('CUDA out of memory');
      expect(job.refunded).toBe(true);
      expect(job.preview_url).toBeNull();
      expect(await balanceOf(alice)).toBe(before);
    } finally {
      comfy.mode = 'success';
    }
  });
});
