import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client } from '../../../test/support/api.ts';
import { flatHeic, flatHevcFrame, heifFromHevc } from '../../../test/support/heif-file.ts';
import { BUSY_MESSAGE, decodeSlotUsage, withDecodeSlot } from '../../adapters/media/decode-slots.ts';
import { heicPhoto, multipartForm, transparentPng } from './uploads.test-helpers.ts';

/**
 * The decoder's bounds, through the upload route: HEIC has its own, smaller pixel limit (its decoder
 * costs more memory per pixel), refused from the header before decoding; and beyond the decode slots
 * and their queue an upload is refused with 503 and Retry-After. Nothing is stored either way.
 */

/** A person's stored images and thumbnails (disk storage's metadata sidecars left out). */
function filesOf(env: TestEnv, userId: string): string[] {
  const dir = path.join(env.config.dataDir, 'files', 'users', userId);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.endsWith('~meta.json'))
    .map((e) => e.name);
}

function upload(env: TestEnv, client: Client, data: Buffer, filename: string) {
  const form = multipartForm([{ name: 'file', filename, contentType: 'application/octet-stream', data }]);
  return env.app.inject({
    method: 'POST',
    url: '/api/images/upload',
    headers: { ...form.headers, authorization: `Bearer ${client.accessToken}` },
    payload: form.payload,
  });
}

describe(`HEIC's own pixel limit on ${testDb}`, () => {
  let env: TestEnv;
  let alice: Client;
  beforeAll(async () => {
    // 0.02 megapixels for HEIC, the general 64 for everything else.
    env = await startTestEnv({ workers: false, env: { UPLOAD_HEIC_MAX_PIXELS: '20000' } });
    alice = await signedInClient(env, 'alice');
  });
  afterAll(() => env?.close());

  it('refuses a HEIC over it with a message naming the size and the limit, storing nothing', async () => {
    // The fixture is 160×120 (19,200 pixels, accepted); a 200×150 one is 30,000.
    expect((await upload(env, alice, heicPhoto(), 'small.heic')).statusCode).toBe(201);

    const res = await upload(env, alice, await flatHeic(200, 150), 'big.heic');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: 'file: This image is 200×150 pixels; the limit for HEIC images is 0.02 megapixels.',
    });
    expect(filesOf(env, alice.userId)).toHaveLength(2); // the first upload's original and thumbnail

    // A PNG of the same size is within the general limit.
    expect((await upload(env, alice, await transparentPng(200, 150), 'big.png')).statusCode).toBe(201);
  });

  it('refuses a HEIC by the size its header declares, without decoding it', async () => {
    // A 64×64 frame whose header claims 20000×20000: decoding would fail, so the size message shows
    // the header was read and the decoder never started.
    const liar = heifFromHevc(await flatHevcFrame(64, 64), 20000, 20000);
    const res = await upload(env, alice, liar, 'liar.heic');
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(
      'file: This image is 20000×20000 pixels; the limit for HEIC images is 0.02 megapixels.',
    );
  });
});

describe(`decode slots on ${testDb}`, () => {
  let env: TestEnv;
  let bob: Client;
  beforeAll(async () => {
    // One decode at a time and no waiting room: a second upload during a decode is refused.
    env = await startTestEnv({
      workers: false,
      env: { IMAGE_DECODE_CONCURRENCY: '1', IMAGE_DECODE_QUEUE: '0' },
    });
    bob = await signedInClient(env, 'bob');
  });
  afterAll(() => env?.close());

  it('refuses an upload beyond the slots and their queue with 503 and Retry-After, storing nothing for it', async () => {
    const png = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    // The only slot is taken by a decode that lasts until the test lets it end (as a large upload's
    // would): two uploads racing each other would not show this on a busy machine, where the first
    // can finish before the second arrives.
    let release = () => {};
    const busy = withDecodeSlot(() => new Promise<void>((resolve) => (release = resolve)), 'always');
    await vi.waitFor(() => expect(decodeSlotUsage().active).toBe(1));
    const refused = await upload(env, bob, png, 'two.png');
    release();
    await busy;
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', detail: `file: ${BUSY_MESSAGE}` });
    expect(filesOf(env, bob.userId)).toHaveLength(0); // nothing stored for it

    // Once the slot is free again, the next upload goes through.
    expect((await upload(env, bob, png, 'three.png')).statusCode).toBe(201);
  });
});
