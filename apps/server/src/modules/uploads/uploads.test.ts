import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testDb, type TestEnv, useTestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client, useSignedIn } from '../../../test/support/api.ts';
import { images } from '../../db/schema/index.ts';
import { DAMAGED, NOT_AN_IMAGE } from './normalise.ts';
import {
  BLUE,
  heicPhoto,
  multipartForm,
  near,
  photo,
  pixelAt,
  pngBombHeader,
  RED,
  sidewaysJpegWithGps,
  transparentPng,
  type FormPart,
  filesOf,
} from './uploads.test-helpers.ts';

const rowsOf = (env: TestEnv, userId: string) =>
  env.container.database.db.select().from(images).where(eq(images.userId, userId));

async function stored(env: TestEnv, key: string): Promise<Buffer> {
  return buffer((await env.container.storage.get(key)).body);
}

function post(env: TestEnv, client: Client | undefined, url: string, parts: FormPart[]) {
  const form = multipartForm(parts);
  return env.app.inject({
    method: 'POST',
    url,
    headers: { ...form.headers, ...(client ? { authorization: `Bearer ${client.accessToken}` } : {}) },
    payload: form.payload,
  });
}

const upload = (env: TestEnv, client: Client | undefined, parts: FormPart[]) =>
  post(env, client, '/api/images/upload', parts);
const file = (data: Buffer | string, filename = 'photo.jpg', contentType = 'image/jpeg'): FormPart => ({
  name: 'file',
  filename,
  contentType,
  data,
});

describe(`uploads on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');

  it.each([
    ['jpeg', 'holiday.jpg', 'image/jpeg'],
    ['png', 'screenshot.png', 'image/png'],
    ['webp', 'sticker.webp', 'image/webp'],
    ['avif', 'camera.avif', 'image/avif'],
    ['tiff', 'scan.tiff', 'image/tiff'],
    ['gif', 'funny.gif', 'image/gif'],
    ['heic', 'IMG_0001.HEIC', 'image/heic'],
  ] as const)('stores a %s upload as an upright JPEG with a WebP thumbnail', async (format, name, type) => {
    const bytes = format === 'heic' ? heicPhoto() : await photo(format);
    const res = await upload(env, alice, [file(bytes, name, type)]);
    expect(res.statusCode).toBe(201);
    const view = res.json();
    const [width, height] = format === 'heic' ? [160, 120] : [120, 80];
    expect(view).toMatchObject({
      kind: 'upload',
      model: 'upload',
      provider: 'upload',
      prompt: name,
      content_type: 'image/jpeg',
      width,
      height,
      is_own: true,
    });
    const [row] = await env.container.database.db.select().from(images).where(eq(images.id, view.id));
    expect(row!.storageKey).toBe(`users/${alice.userId}/images/${view.id}.jpg`);
    const original = await stored(env, row!.storageKey);
    expect(row!.bytes).toBe(original.length);
    const meta = await sharp(original).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', width, height]);
    expect(near(await pixelAt(original, 10, height / 2), RED, 50)).toBe(true);
    expect(near(await pixelAt(original, width - 10, height / 2), BLUE, 50)).toBe(true);
    const thumb = await sharp(await stored(env, row!.thumbnailKey)).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['webp', width, height]);
  });

  it('applies EXIF orientation and keeps no EXIF, GPS or XMP in the stored copy', async () => {
    const res = await upload(env, alice, [file(await sidewaysJpegWithGps(), 'sideways.jpg')]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ width: 80, height: 120 });
    const [row] = await env.container.database.db.select().from(images).where(eq(images.id, res.json().id));
    const original = await stored(env, row!.storageKey);
    const meta = await sharp(original).metadata();
    expect([meta.width, meta.height]).toEqual([80, 120]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(original.includes('secret-exif-description')).toBe(false);
    // Upright: the red half that was on the left of the sideways pixels is now on top.
    expect(near(await pixelAt(original, 40, 10), RED)).toBe(true);
    expect(near(await pixelAt(original, 40, 110), BLUE)).toBe(true);
  });

  it('goes by the bytes, not the name or Content-Type: a PNG called .jpg is stored as PNG', async () => {
    const res = await upload(env, alice, [file(await transparentPng(), 'really-a-png.jpg', 'image/jpeg')]);
    expect(res.statusCode).toBe(201);
    expect(res.json().content_type).toBe('image/png');
    const [row] = await env.container.database.db.select().from(images).where(eq(images.id, res.json().id));
    expect(row!.storageKey).toMatch(/\.png$/);
    expect((await sharp(await stored(env, row!.storageKey)).metadata()).format).toBe('png');
  });

  it('refuses what is not an image, a cut-short image and a pixel bomb, storing nothing', async () => {
    const carol = await signedInClient(env, 'carol');
    const jpeg = await photo('jpeg', 400, 300);
    const cases: Array<[FormPart, string]> = [
      [file('this is a text file, not a picture', 'photo.png', 'image/png'), `file: ${NOT_AN_IMAGE}`],
      [file(jpeg.subarray(0, jpeg.length - 300), 'cut.jpg'), `file: ${DAMAGED}`],
      [
        file(pngBombHeader(20000, 20000), 'bomb.png', 'image/png'),
        'file: This image is 20000×20000 pixels; the limit is 64 megapixels.',
      ],
    ];
    for (const [part, detail] of cases) {
      const res = await upload(env, carol, [part]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', detail });
    }
    expect(await rowsOf(env, carol.userId)).toEqual([]);
    expect(filesOf(env, carol.userId)).toEqual([]);
  });

  it('answers a wrong form with a 4xx that says what to send', async () => {
    const dave = await signedInClient(env, 'dave');
    const png = await photo('png', 16, 16);
    const refused = async (parts: FormPart[], status: number, detail: RegExp) => {
      const res = await upload(env, dave, parts);
      expect(res.statusCode).toBe(status);
      expect(res.json().detail).toMatch(detail);
    };
    await refused(
      [{ ...file(png), name: 'image' }],
      400,
      /"image" is not a field of this form; it accepts only the file field file\./,
    );
    await refused([], 400, /Add the image as the "file" file\./);
    await refused([file(png), file(png)], 400, /file was sent more than once/);
    await refused([file(Buffer.alloc(0), 'empty.png')], 400, /file is empty; choose the file again\./);
    await refused([{ name: 'file', data: 'text where the file goes' }], 400, /file must be a file/);
    await refused(
      [file(png), { name: 'caption', data: 'hello' }],
      400,
      /"caption" is not a field of this form/,
    );
    // More parts than any form has: refused, and the whole request is still read.
    const many = Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, data: 'x' }));
    const res = await upload(env, dave, many);
    expect([400, 413]).toContain(res.statusCode);

    // Malformed bodies: no boundary in the header, and a form cut off in the middle of the file.
    const auth = { authorization: `Bearer ${dave.accessToken}` };
    const noBoundary = await env.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      headers: { ...auth, 'content-type': 'multipart/form-data' },
      payload: 'whatever',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().detail).toBe('The form data is incomplete or malformed; please send it again.');
    const whole = multipartForm([file(png)]);
    const cutOff = await env.app.inject({
      method: 'POST',
      url: '/api/images/upload',
      headers: { ...auth, ...whole.headers },
      payload: whole.payload.subarray(0, whole.payload.length - 60),
    });
    expect(cutOff.statusCode).toBe(400);

    const json = await dave.call('POST', '/api/images/upload', { file: 'not multipart' });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      detail: 'Send this form as multipart/form-data.',
    });

    expect(await rowsOf(env, dave.userId)).toEqual([]);
    expect(filesOf(env, dave.userId)).toEqual([]);
  });

  it('needs a signed-in person', async () => {
    const png = await photo('png', 16, 16);
    expect((await upload(env, undefined, [file(png)])).statusCode).toBe(401);
    expect((await post(env, undefined, '/api/images/convert-preview', [file(png)])).statusCode).toBe(401);
  });

  it('lists an upload for its owner only', async () => {
    const res = await upload(env, alice, [file(await photo('jpeg', 32, 32), 'mine.jpg')]);
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    const listed = async (client: Client) =>
      (
        (await client.call('GET', '/api/images?kind=upload&limit=100')).json().items as Array<{ id: string }>
      ).map((i) => i.id);
    expect(await listed(alice)).toContain(id);
    expect(await listed(bob)).not.toContain(id);
    expect((await bob.call('PUT', `/api/images/${id}`)).statusCode).toBe(404);
  });

  it('keeps the original file name as the label, without folders, at most 200 characters', async () => {
    const png = await photo('png', 16, 16);
    const long = `${'a'.repeat(250)}.png`;
    expect((await upload(env, alice, [file(png, long)])).json().prompt).toBe('a'.repeat(200));
    expect((await upload(env, alice, [file(png, 'C:\\Users\\me\\cat.png')])).json().prompt).toBe('cat.png');
    expect((await upload(env, alice, [file(png, '   ')])).json().prompt).toBeNull();
  });

  describe('convert-preview', () => {
    const preview = (parts: FormPart[], client: Client = bob) =>
      post(env, client, '/api/images/convert-preview', parts);

    it('returns a JPEG of a HEIC, not cached, storing nothing', async () => {
      const erin = await signedInClient(env, 'erin');
      const res = await preview([file(heicPhoto(), 'IMG_0002.HEIC', 'image/heic')], erin);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toBe('no-store');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 160, 120]);
      expect(near(await pixelAt(res.rawPayload, 20, 60), { r: 220, g: 30, b: 30 })).toBe(true);
      expect(await rowsOf(env, erin.userId)).toEqual([]);
      expect(filesOf(env, erin.userId)).toEqual([]);
    });

    it('fits a TIFF and a large PNG inside 1024 px and turns a sideways JPEG upright', async () => {
      const tiff = await preview([file(await photo('tiff', 1500, 1200), 'scan.tif', 'image/tiff')]);
      expect(tiff.statusCode).toBe(200);
      const tiffMeta = await sharp(tiff.rawPayload).metadata();
      expect([tiffMeta.format, tiffMeta.width, tiffMeta.height]).toEqual(['jpeg', 1024, 819]);

      const png = await preview([file(await photo('png', 1200, 2400), 'tall.png', 'image/png')]);
      const pngMeta = await sharp(png.rawPayload).metadata();
      expect([pngMeta.width, pngMeta.height]).toEqual([512, 1024]);

      const avif = await preview([file(await photo('avif'), 'x.avif', 'image/avif')]);
      expect((await sharp(avif.rawPayload).metadata()).format).toBe('jpeg');

      const sideways = await preview([file(await sidewaysJpegWithGps())]);
      const sidewaysMeta = await sharp(sideways.rawPayload).metadata();
      expect([sidewaysMeta.width, sidewaysMeta.height, sidewaysMeta.exif]).toEqual([80, 120, undefined]);
    });

    it('refuses bad input like an upload does', async () => {
      const text = await preview([file('plain text', 'a.heic', 'image/heic')]);
      expect(text.statusCode).toBe(400);
      expect(text.json().detail).toBe(`file: ${NOT_AN_IMAGE}`);
      const wrongField = await preview([{ ...file(heicPhoto()), name: 'image' }]);
      expect(wrongField.statusCode).toBe(400);
      expect(wrongField.json().detail).toMatch(/"image" is not a field of this form/);
    });
  });
});

describe(`upload size limit on ${testDb}`, () => {
  const env = useTestEnv({ workers: false, listen: true, env: { UPLOAD_MAX_BYTES: String(64 * 1024) } });
  const frank = useSignedIn(env, 'frank');

  it('refuses a file over the limit with 413 and stores nothing', async () => {
    const big = await sharp({
      create: {
        width: 300,
        height: 300,
        channels: 3,
        background: '#000000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(64 * 1024);
    const res = await upload(env, frank, [file(big, 'noise.png', 'image/png')]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'file is larger than the 64 KB limit.',
    });
    expect(await rowsOf(env, frank.userId)).toEqual([]);
    expect(filesOf(env, frank.userId)).toEqual([]);
  });

  it('answers a large upload over a real connection without waiting for ever, and keeps serving', async () => {
    // 4 MB sent to a 64 KB limit: the answer must come, the rest of the body read and discarded.
    const form = multipartForm([file(Buffer.alloc(4 * 1024 * 1024, 0xab), 'huge.jpg')]);
    const headers = { ...form.headers, authorization: `Bearer ${frank.accessToken}` };
    const res = await fetch(`${env.baseUrl}/api/images/upload`, {
      method: 'POST',
      headers,
      body: form.payload,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toBe('file is larger than the 64 KB limit.');

    // Refused at the first part, with a large file still to come: the answer names the first problem.
    // If the rest were left unread, the stalled request would also hold app.close() in afterAll.
    const unknownFirst = multipartForm([
      { name: 'caption', data: 'hello' },
      file(Buffer.alloc(4 * 1024 * 1024, 0xab), 'huge.jpg'),
    ]);
    const refused = await fetch(`${env.baseUrl}/api/images/upload`, {
      method: 'POST',
      headers: { ...unknownFirst.headers, authorization: `Bearer ${frank.accessToken}` },
      body: unknownFirst.payload,
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(
      /"caption" is not a field of this form/,
    );

    const small = multipartForm([file(await photo('jpeg', 32, 32))]);
    const ok = await fetch(`${env.baseUrl}/api/images/upload`, {
      method: 'POST',
      headers: { ...small.headers, authorization: `Bearer ${frank.accessToken}` },
      body: small.payload,
    });
    expect(ok.status).toBe(201);
    expect(await rowsOf(env, frank.userId)).toHaveLength(1);
  });
});
