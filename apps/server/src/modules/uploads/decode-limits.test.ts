import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client } from '../../../test/support/api.ts';
import { flatHeic, flatHevcFrame, heifFromHevc } from '../../../test/support/heif-file.ts';
import {
  BUSY_MESSAGE,
  decodeSlotUsage,
  withDecodeSlot,
  YOUR_IMAGES_BUSY_MESSAGE,
} from '../../adapters/media/decode-slots.ts';
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
    const busy = withDecodeSlot(() => new Promise<void>((resolve) => (release = resolve)), {
      wait: 'always',
    });
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

describe(`fair turns at the decode slots on ${testDb}`, () => {
  let env: TestEnv;
  let flooder: Client;
  let other: Client;
  let heic: Buffer;
  beforeAll(async () => {
    // One decode at a time, four may wait, two of them one person's; HEIC capped at 1.2 megapixels so
    // the flood below is HEICs at the cap, as in the attack (50 MP there), at a size a test can afford.
    env = await startTestEnv({
      workers: false,
      env: {
        IMAGE_DECODE_CONCURRENCY: '1',
        IMAGE_DECODE_QUEUE: '4',
        IMAGE_DECODE_QUEUE_PER_PERSON: '2',
        UPLOAD_HEIC_MAX_PIXELS: '1200000',
        // The decode queue is what is under test, not the per-person write limit.
        RATE_LIMIT_WRITE_PER_MINUTE: '100000',
        RATE_LIMIT_IP_WRITE_PER_MINUTE: '100000',
      },
    });
    [flooder, other, heic] = await Promise.all([
      signedInClient(env, 'flooder'),
      signedInClient(env, 'other'),
      flatHeic(1200, 1000),
    ]);
  });
  afterAll(() => env?.close());

  it("one account flooding the decode queue with HEICs cannot crowd out another's small uploads", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#993366' } })
      .png()
      .toBuffer();
    type Answer = Awaited<ReturnType<typeof upload>>;
    const flood: Answer[] = [];
    let inFlight = 0;
    const send = () => {
      inFlight++;
      return upload(env, flooder, heic, 'flood.heic').then((res) => {
        inFlight--;
        flood.push(res);
        return res;
      });
    };

    // The only slot is held by one of the flooder's decodes until the test lets it end, so the queue
    // is as the flood leaves it whatever the machine's speed. Eight more HEICs arrive meanwhile.
    let release = () => {};
    const held = withDecodeSlot(() => new Promise<void>((resolve) => (release = resolve)), {
      owner: flooder.userId,
      wait: 'always',
    });
    await vi.waitFor(() => expect(decodeSlotUsage().active).toBe(1));
    const burst = Array.from({ length: 8 }, send);
    // Generous: eight uploads' forms are read first, on a machine that may be busy.
    const settle = { timeout: 20_000, interval: 20 };
    await vi.waitFor(() => expect(flood.length + decodeSlotUsage().waiting).toBe(8), settle);
    const waitingFromFlood = decodeSlotUsage().waiting;

    // The other person's first upload arrives while the flood fills the queue: it waits its turn.
    const mine: Answer[] = [];
    const first = upload(env, other, png, 'mine-0.png').then((res) => void mine.push(res));
    await vi.waitFor(
      () => expect(mine.length + decodeSlotUsage().waiting).toBe(waitingFromFlood + 1),
      settle,
    );

    // From here the flooder keeps up to six uploads in flight (more than the whole queue holds), one
    // more every 25 ms at most, until the other person is done; meanwhile the other person uploads
    // four more, one after another as a person does.
    let done = false;
    const later: Array<Promise<Answer>> = [];
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const flooding = (async () => {
      while (!done) {
        if (inFlight < 6) later.push(send());
        await pause(25);
      }
    })();
    release();
    await held;
    await first;
    for (let i = 1; i < 5; i++) mine.push(await upload(env, other, png, `mine-${i}.png`));
    done = true;
    await flooding;
    const burstAnswers = await Promise.all(burst);
    await Promise.all(later);

    // Every one of the other person's uploads went through: 5 of 5.
    expect(mine.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(filesOf(env, other.userId)).toHaveLength(10); // five originals and their thumbnails

    // The flooder's excess was refused as theirs (429, Retry-After), never as a busy server, and the
    // first burst shows their share: two of the eight waited, six were turned away at once.
    const refused = flood.filter((r) => r.statusCode !== 201);
    expect(burstAnswers.filter((r) => r.statusCode === 429)).toHaveLength(6);
    expect(refused.length).toBeGreaterThanOrEqual(6);
    for (const res of refused) {
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', detail: `file: ${YOUR_IMAGES_BUSY_MESSAGE}` });
    }
    expect(flood.filter((r) => r.statusCode === 201).length).toBeGreaterThanOrEqual(2);
    expect(decodeSlotUsage()).toEqual({ active: 0, waiting: 0 });
  });
});
