import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ImageView, VideoView } from '@lumina/contracts';
import { count, eq } from 'drizzle-orm';
import sharp, { type Stats } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { balanceOf, ledgerOf, signedInClient, waitForJob, type Client } from '../../../test/support/api.ts';
import { postForm } from '../../../test/support/multipart.ts';
import type { ImageToolsProvider } from '../../adapters/providers/image-tools.ts';
import { ProviderError } from '../../adapters/providers/text-to-image.ts';
import { images, jobs } from '../../db/schema/index.ts';

/** A small photo-like picture: a diagonal gradient with a bright disc, as PNG. */
async function picture(width: number, height: number, colour = { r: 40, g: 90, b: 160 }) {
  const disc = Buffer.from(
    `<svg width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
      `<stop offset="0" stop-color="rgb(${colour.r},${colour.g},${colour.b})"/><stop offset="1" stop-color="#f0e0c0"/>` +
      `</linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>` +
      `<circle cx="${width / 2}" cy="${height / 3}" r="${Math.min(width, height) / 5}" fill="#e8b090"/></svg>`,
  );
  return sharp(disc).png().toBuffer();
}

/** A product shot: a red bottle shape on a plain white background. */
async function productShot() {
  const svg = Buffer.from(
    `<svg width="160" height="200"><rect width="100%" height="100%" fill="#ffffff"/>` +
      `<rect x="55" y="40" width="50" height="140" rx="12" fill="#d01020"/><rect x="68" y="15" width="24" height="30" fill="#202020"/></svg>`,
  );
  return sharp(svg).png().toBuffer();
}

const filesOf = (env: TestEnv, userId: string) => {
  const dir = path.join(env.config.dataDir, 'files', 'users', userId);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
};

const imageCount = async (env: TestEnv, userId: string) =>
  (await env.container.database.db.select({ n: count() }).from(images).where(eq(images.userId, userId)))[0]!
    .n;
const jobCount = async (env: TestEnv, userId: string) =>
  (await env.container.database.db.select({ n: count() }).from(jobs).where(eq(jobs.userId, userId)))[0]!.n;

async function jobImages(client: Client, jobId: string) {
  return (await client.call('GET', `/api/images?job_id=${jobId}`)).json().items as ImageView[];
}

async function fetchBytes(env: TestEnv, url: string) {
  const res = await env.app.inject({ method: 'GET', url });
  return { status: res.statusCode, type: res.headers['content-type'], bytes: res.rawPayload };
}

describe(`image tools on ${testDb}`, { timeout: 180_000 }, () => {
  let env: TestEnv;
  let alice: Client;
  let bob: Client;
  let photo: Buffer;
  let web: Server;
  let webUrl: string;

  beforeAll(async () => {
    env = await startTestEnv({ env: { WELCOME_CREDITS: '60', IMAGE_URL_ALLOW_PRIVATE: 'true' } });
    alice = await signedInClient(env, 'alice');
    bob = await signedInClient(env, 'bob');
    photo = await picture(192, 128);
    // A web server with an image on it, for edit_image's image_url.
    web = createServer((req, res) => {
      if (req.url === '/photo.png') {
        res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: '/photo.png' }).end();
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    web?.close();
    await env?.close();
  });

  it('lists every tool with its models, costs, defaults and the upload limits, publicly', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/tools' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tools.map((t: { tool: string }) => t.tool)).toEqual([
      'edit',
      'copy_style',
      'product_holding',
      'upscale',
      'animate',
    ]);
    // No vendor keys here: every tool defaults to its local model, hosted ones are listed unavailable.
    for (const tool of body.tools) {
      expect(tool.default_model).toMatch(/^local-/);
      expect(tool.models.filter((m: { available: boolean }) => !m.available).length).toBeGreaterThan(0);
    }
    expect(body).toMatchObject({
      aspect_ratios: ['1:1', '3:4', '4:3', '9:16', '16:9'],
      upscale_factors: [2, 4],
      animate_durations: [5, 10],
      upload_max_bytes: 20 * 1024 * 1024,
    });
  });

  it('edits an uploaded file: charged, run, saved to the gallery with its recipe; the upload kept apart', async () => {
    const before = await balanceOf(alice);
    const res = await postForm(env, alice, '/api/generate/falai/edit_image_file', {
      image_file: { filename: 'holiday.png', bytes: photo, contentType: 'image/png' },
      prompt: 'warmer golden sunset light',
      strength: '0.8',
      seed: '42',
    });
    expect(res.statusCode, res.body).toBe(202);
    const { job_id, cost, balance } = res.json();
    expect(cost).toBe(1);
    expect(balance).toBe(before - 1);

    const job = await waitForJob(alice, job_id);
    expect(job).toMatchObject({ kind: 'edit', prompt: 'warmer golden sunset light', refunded: false });
    const [out] = await jobImages(alice, job_id);
    expect(out).toMatchObject({
      kind: 'edit',
      width: 192,
      height: 128,
      seed: 42,
      prompt: 'warmer golden sunset light',
    });
    expect(out!.recipe).toMatchObject({ tool: 'edit', strength: 0.8 });

    // The input became one of alice's uploads, referenced by the recipe and listed only under kind=upload.
    const uploads = (await alice.call('GET', '/api/images?kind=upload')).json().items as ImageView[];
    expect(uploads.map((u) => u.id)).toEqual(out!.recipe!.source_image_ids);
    expect(uploads[0]).toMatchObject({ kind: 'upload', width: 192, height: 128 });
    const gallery = (await alice.call('GET', '/api/images')).json().items as ImageView[];
    expect(gallery.map((i) => i.id)).toContain(out!.id);
    expect(gallery.some((i) => i.kind === 'upload')).toBe(false);

    // The result really is warmer: more red relative to blue than the original.
    const file = await fetchBytes(env, out!.url);
    const [origStats, outStats] = await Promise.all([sharp(photo).stats(), sharp(file.bytes).stats()]);
    const warmth = (s: Stats) => s.channels[0]!.mean / s.channels[2]!.mean;
    expect(warmth(outStats)).toBeGreaterThan(warmth(origStats));
  });

  it('edits one of your images by id and an image fetched from a URL (following a redirect)', async () => {
    const [upload] = (await alice.call('GET', '/api/images?kind=upload')).json().items as ImageView[];
    const byId = await alice.call('POST', '/api/generate/falai/edit_image', {
      image_id: upload!.id,
      prompt: 'black and white',
    });
    expect(byId.statusCode, byId.body).toBe(202);
    await waitForJob(alice, byId.json().job_id);

    const byUrl = await alice.call('POST', '/api/generate/falai/edit_image', {
      image_url: `${webUrl}/moved`,
      prompt: 'cool blue night',
    });
    expect(byUrl.statusCode, byUrl.body).toBe(202);
    await waitForJob(alice, byUrl.json().job_id);
    const [out] = await jobImages(alice, byUrl.json().job_id);
    const stored = (await alice.call('GET', '/api/images?kind=upload')).json().items as ImageView[];
    expect(stored.map((s) => s.id)).toContain(out!.recipe!.source_image_ids[0]);
    expect(stored.find((s) => s.id === out!.recipe!.source_image_ids[0])!.prompt).toBe('photo.png');
  });

  it('refuses an edit of someone else’s image, a bad URL, or both/neither sources, changing nothing', async () => {
    const [upload] = (await alice.call('GET', '/api/images?kind=upload')).json().items as ImageView[];
    const before = {
      balance: await balanceOf(bob),
      images: await imageCount(env, bob.userId),
      jobs: await jobCount(env, bob.userId),
    };
    const cases = [
      [{ image_id: upload!.id, prompt: 'mine now' }, 404, /was not found/],
      [{ image_url: `${webUrl}/missing.png`, prompt: 'x' }, 400, /answered 404/],
      [{ image_url: 'ftp://example.test/a.png', prompt: 'x' }, 400, /http and https/],
      [{ prompt: 'no image' }, 400, /exactly one of image_id or image_url/],
      [{ image_id: upload!.id, image_url: `${webUrl}/photo.png`, prompt: 'both' }, 400, /exactly one/],
      [{ image_id: upload!.id, prompt: '' }, 400, /Describe the change/],
      [{ image_id: upload!.id, prompt: 'x', strength: 3 }, 400, /strength/],
    ] as const;
    for (const [body, status, detail] of cases) {
      const res = await bob.call('POST', '/api/generate/falai/edit_image', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().detail).toMatch(detail);
    }
    expect(await balanceOf(bob)).toBe(before.balance);
    expect(await imageCount(env, bob.userId)).toBe(before.images);
    expect(await jobCount(env, bob.userId)).toBe(before.jobs);
  });

  it('refuses bad uploads with a clear message and stores nothing', async () => {
    const before = { balance: await balanceOf(bob), files: filesOf(env, bob.userId).length };
    const cases = [
      [
        {
          image_file: {
            filename: 'photo.png',
            bytes: Buffer.from('just some text, not a picture'),
            contentType: 'image/png',
          },
          prompt: 'x',
        },
        400,
        /not an image/i,
      ],
      [
        {
          image_file: {
            filename: 'cut.png',
            bytes: photo.subarray(0, photo.length / 2),
            contentType: 'image/png',
          },
          prompt: 'x',
        },
        400,
        /damaged|cut short|not an image/i,
      ],
      [{ picture: { filename: 'a.png', bytes: photo }, prompt: 'x' }, 400, /picture/],
      [{ prompt: 'no file' }, 400, /image_file/],
      [
        { image_file: { filename: 'a.png', bytes: photo }, prompt: 'x', model: 'local-upscale' },
        400,
        /Unknown model/,
      ],
      [
        { image_file: { filename: 'a.png', bytes: photo }, prompt: 'x', model: 'fal-flux-edit' },
        400,
        /no fal\.ai key/,
      ],
    ] as const;
    for (const [parts, status, detail] of cases) {
      const res = await postForm(env, bob, '/api/generate/falai/edit_image_file', parts);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().detail).toMatch(detail);
    }
    const json = await bob.call('POST', '/api/generate/falai/edit_image_file', { prompt: 'x' });
    expect(json.statusCode).toBe(415);
    expect(await balanceOf(bob)).toBe(before.balance);
    expect(filesOf(env, bob.userId)).toHaveLength(before.files);
    expect(await imageCount(env, bob.userId)).toBe(0);
  });

  it('copies the style of an upload into a new picture of the description', async () => {
    const res = await postForm(env, alice, '/api/copy_style', {
      image: { filename: 'style.png', bytes: await picture(160, 160, { r: 200, g: 40, b: 120 }) },
      description: 'a lighthouse on a cliff',
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(alice, res.json().job_id);
    expect(job.kind).toBe('copy_style');
    const [out] = await jobImages(alice, job.id);
    expect(out).toMatchObject({ kind: 'copy_style', prompt: 'a lighthouse on a cliff' });
    expect(out!.recipe).toMatchObject({ tool: 'copy_style', description: 'a lighthouse on a cliff' });
    expect(out!.recipe!.source_image_ids).toHaveLength(1);

    const missing = await postForm(env, alice, '/api/copy_style', {
      image: { filename: 's.png', bytes: photo },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toMatch(/description/);
  });

  it('composites a person and a product at the chosen aspect ratio, from a file and an image id', async () => {
    const product = await postForm(env, alice, '/api/images/upload', {
      file: { filename: 'bottle.png', bytes: await productShot() },
    });
    expect(product.statusCode, product.body).toBe(201);
    const res = await postForm(env, alice, '/api/generate/falai/product_holding', {
      person_file: { filename: 'me.png', bytes: await picture(300, 400) },
      product_image_id: product.json().id,
      aspect_ratio: '9:16',
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(alice, res.json().job_id);
    const [out] = await jobImages(alice, job.id);
    expect(out!.recipe).toMatchObject({ tool: 'product_holding', aspect_ratio: '9:16' });
    expect(out!.recipe!.source_image_ids[1]).toBe(product.json().id);
    expect(out!.width / out!.height).toBeCloseTo(9 / 16, 1);
  });

  it('refuses product holding with both or neither sources, a foreign id or an unsupported ratio, changing nothing', async () => {
    const [aliceUpload] = (await alice.call('GET', '/api/images?kind=upload')).json().items as ImageView[];
    const own = await postForm(env, bob, '/api/images/upload', { file: { filename: 'b.png', bytes: photo } });
    const person = { filename: 'p.png', bytes: photo };
    const before = {
      balance: await balanceOf(bob),
      files: filesOf(env, bob.userId).length,
      images: await imageCount(env, bob.userId),
    };
    const cases = [
      [
        {
          person_file: person,
          person_image_id: own.json().id,
          product_image_id: own.json().id,
          aspect_ratio: '1:1',
        },
        400,
        /either person_file or person_image_id for the person photo, not both/,
      ],
      [{ product_image_id: own.json().id, aspect_ratio: '1:1' }, 400, /person photo/],
      [{ person_file: person, aspect_ratio: '1:1' }, 400, /product photo/],
      [
        { person_file: person, product_image_id: own.json().id, aspect_ratio: '2:1' },
        400,
        /aspect_ratio must be one of 1:1, 3:4, 4:3, 9:16, 16:9/,
      ],
      [{ person_file: person, product_image_id: aliceUpload!.id, aspect_ratio: '1:1' }, 404, /not found/],
      [{ person_file: person, product_image_id: 'not-a-uuid', aspect_ratio: '1:1' }, 400, /product_image_id/],
    ] as const;
    for (const [parts, status, detail] of cases) {
      const res = await postForm(env, bob, '/api/generate/falai/product_holding', parts);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().detail).toMatch(detail);
    }
    expect(await balanceOf(bob)).toBe(before.balance);
    expect(filesOf(env, bob.userId)).toHaveLength(before.files);
    expect(await imageCount(env, bob.userId)).toBe(before.images);
  });

  it('upscales 2× and 4× at the documented price, and refuses other factors and other people’s images', async () => {
    const [upload] = (await alice.call('GET', '/api/images?kind=upload')).json().items as ImageView[];
    const four = await alice.call('POST', '/api/upscale/', { image_id: upload!.id, factor: 4 });
    expect(four.statusCode, four.body).toBe(202);
    expect(four.json().cost).toBe(2);
    await waitForJob(alice, four.json().job_id);
    const [big] = await jobImages(alice, four.json().job_id);
    expect([big!.width, big!.height]).toEqual([upload!.width * 4, upload!.height * 4]);
    expect(big!.recipe).toMatchObject({ tool: 'upscale', factor: 4, source_image_ids: [upload!.id] });

    expect((await alice.call('POST', '/api/upscale/', { image_id: upload!.id, factor: 3 })).statusCode).toBe(
      400,
    );
    const foreign = await bob.call('POST', '/api/upscale/', { image_id: upload!.id });
    expect(foreign.statusCode).toBe(404);

    // A result past the largest size is refused up front, not charged and failed later.
    const wide = await postForm(env, alice, '/api/images/upload', {
      file: { filename: 'wide.png', bytes: await picture(2100, 20) },
    });
    const balance = await balanceOf(alice);
    const tooBig = await alice.call('POST', '/api/upscale/', { image_id: wide.json().id, factor: 4 });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().detail).toBe(
      'Upscaling this 2100 × 20 image 4× would make it 8400 × 80 pixels; the most is 8192 pixels on a side. Choose 2× or a smaller image.',
    );
    expect(await balanceOf(alice)).toBe(balance);
  });

  it('animates an image into an H.264 MP4 listed with its poster, duration and size, for its owner only', async () => {
    const [upload] = (await alice.call('GET', '/api/images?kind=upload')).json().items as ImageView[];
    const res = await alice.call('POST', '/api/animate', {
      image_id: upload!.id,
      prompt: 'slow zoom in',
      duration: 5,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().cost).toBe(5);
    const jobId = res.json().job_id;
    await waitForJob(alice, jobId, 'succeeded', 120_000);

    const list = (await alice.call('GET', '/api/animate/videos')).json();
    const video = (list.items as VideoView[]).find((v) => v.id === jobId)!;
    expect(video).toMatchObject({
      status: 'succeeded',
      prompt: 'slow zoom in',
      source_image_id: upload!.id,
      cost: 5,
    });
    expect(video.duration_seconds).toBeCloseTo(5, 0);
    expect(video.width! * video.height!).toBeGreaterThan(0);
    const mp4 = await fetchBytes(env, video.url!);
    expect(mp4.status).toBe(200);
    expect(mp4.type).toBe('video/mp4');
    expect(mp4.bytes.subarray(4, 8).toString()).toBe('ftyp');
    expect(mp4.bytes.length).toBe(video.bytes);
    // Players seek with byte ranges.
    const head = await env.app.inject({ method: 'GET', url: video.url!, headers: { range: 'bytes=0-99' } });
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-99/${video.bytes}`);
    expect(head.rawPayload.equals(mp4.bytes.subarray(0, 100))).toBe(true);
    const tail = await env.app.inject({ method: 'GET', url: video.url!, headers: { range: 'bytes=-10' } });
    expect(tail.rawPayload.equals(mp4.bytes.subarray(-10))).toBe(true);
    const past = await env.app.inject({
      method: 'GET',
      url: video.url!,
      headers: { range: `bytes=${video.bytes! + 5}-` },
    });
    expect(past.statusCode).toBe(416);
    const poster = await fetchBytes(env, video.poster_url!);
    expect((await sharp(poster.bytes).metadata()).format).toBe('jpeg');

    // Bob sees none of it and cannot delete it.
    expect((await bob.call('GET', '/api/animate/videos')).json().items).toEqual([]);
    expect((await bob.call('DELETE', `/api/animate/videos/${jobId}`)).statusCode).toBe(404);
    expect((await bob.call('POST', '/api/animate', { image_id: upload!.id })).statusCode).toBe(404);
    expect((await alice.call('POST', '/api/animate', { image_id: upload!.id, duration: 7 })).statusCode).toBe(
      400,
    );

    expect((await alice.call('DELETE', `/api/animate/videos/${jobId}`)).statusCode).toBe(200);
    const after = (await alice.call('GET', '/api/animate/videos')).json().items as VideoView[];
    expect(after.find((v) => v.id === jobId)).toBeUndefined();
    expect((await fetchBytes(env, video.url!)).status).toBe(404);
  });

  it('refuses a run the balance cannot pay for, without keeping the upload', async () => {
    const poor = await signedInClient(env, 'poor');
    // Spend the welcome credits down to 0 on 4× upscales and animations is slow; drain the ledger directly.
    await env.container.services.ledger.spend({ userId: poor.userId, amount: 60, reference: 'test:drain' });
    const res = await postForm(env, poor, '/api/copy_style', {
      image: { filename: 's.png', bytes: photo },
      description: 'a cat',
    });
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('INSUFFICIENT_CREDITS');
    expect(await imageCount(env, poor.userId)).toBe(0);
    expect(filesOf(env, poor.userId)).toEqual([]);
  });

  it('needs a signed-in person for every tool', async () => {
    for (const url of [
      '/api/generate/falai/edit_image_file',
      '/api/copy_style',
      '/api/generate/falai/product_holding',
    ]) {
      expect((await postForm(env, undefined, url, { prompt: 'x' })).statusCode).toBe(401);
    }
    for (const url of ['/api/generate/falai/edit_image', '/api/upscale/', '/api/animate']) {
      expect((await env.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
    }
    expect((await env.app.inject({ method: 'GET', url: '/api/animate/videos' })).statusCode).toBe(401);
  });
});

describe(`a failing image tool on ${testDb}`, { timeout: 120_000 }, () => {
  let env: TestEnv;
  let calls = 0;
  const failing: ImageToolsProvider = {
    name: 'local',
    available: true,
    async run() {
      calls++;
      throw new ProviderError('nope', 'rejected', 'The provider refused this image.');
    },
    async cancel() {
      return false;
    },
  };

  beforeAll(async () => {
    env = await startTestEnv({
      env: { WELCOME_CREDITS: '10' },
      inject: { adapters: { local: { tools: failing } } },
    });
  });
  afterAll(() => env?.close());

  it('fails the job with the provider’s words and refunds the credits exactly once', async () => {
    const carol = await signedInClient(env, 'carol');
    const res = await postForm(env, carol, '/api/copy_style', {
      image: { filename: 's.png', bytes: await picture(64, 64) },
      description: 'a cat',
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(carol, res.json().job_id, 'failed');
    expect(job.error).toMatch(/refused this image.*refunded/);
    expect(job.refunded).toBe(true);
    expect(calls).toBe(1);
    expect(await balanceOf(carol)).toBe(10);
    const refunds = (await ledgerOf(env, carol.userId)).filter((e) => e.reason === 'refund');
    expect(refunds).toHaveLength(1);
    expect(await jobImages(carol, job.id)).toEqual([]);
  });
});
