import { buffer } from 'node:stream/consumers';
import { constants, deflateRawSync } from 'node:zlib';
import { TRAINING_MAX_PHOTOS, type TrainingSetView, type TrainingUploadResult } from '@lumina/contracts';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb, type TestEnv, useTestEnv } from '../../../test/harness.ts';
import { signedInClient, type Client, useSignedIn } from '../../../test/support/api.ts';
import { trainingImages, trainingSets } from '../../db/schema/index.ts';
import { formatBytes } from '../uploads/multipart.ts';
import { NOT_AN_IMAGE } from '../uploads/normalise.ts';
import { filesOf, sidewaysJpegWithGps } from '../uploads/uploads.test-helpers.ts';
import { BLURRY_HINT, NO_SUBJECT_HINT } from './photo-checks.ts';
import { zipInflatedBytes } from './photo-zip.ts';
import { loadTrainingPhotos } from './training-photos.ts';
import {
  buildZip,
  filesForm,
  seededPhoto,
  zerosDeflated,
  type UploadPart,
} from './training-sets.test-helpers.ts';

function post(env: TestEnv, client: Client | undefined, url: string, parts: UploadPart[]) {
  const form = filesForm(parts);
  return env.app.inject({
    method: 'POST',
    url,
    headers: { ...form.headers, ...(client ? { authorization: `Bearer ${client.accessToken}` } : {}) },
    payload: form.payload,
  });
}

const upload = (env: TestEnv, client: Client | undefined, parts: UploadPart[]) =>
  post(env, client, '/api/upload_train_images', parts);

/** Training files in a person's storage folder. */
const trainingFiles = (env: TestEnv, userId: string) =>
  filesOf(env, userId).filter((f) => f.startsWith('training/'));

const setRows = (env: TestEnv, userId: string) =>
  env.container.database.db.select().from(trainingSets).where(eq(trainingSets.userId, userId));

/** Photos of distinct content, big enough to train on, as JPEG parts named photo-<seed>.jpg. */
async function photos(seeds: number[], width = 640, height = 560): Promise<UploadPart[]> {
  return Promise.all(
    seeds.map(async (seed) => ({
      filename: `photo-${seed}.jpg`,
      data: await seededPhoto(seed, width, height),
    })),
  );
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe(`training sets on ${testDb}`, () => {
  const env = useTestEnv({ workers: false });
  const alice = useSignedIn(env, 'alice');
  const bob = useSignedIn(env, 'bob');
  const carol = useSignedIn(env, 'carol');
  /** A new person, so a test sees only its own sets and files. */
  const someone = () => signedInClient(env, 'someone');

  /** A set of alice's made once for the read, cross-user and delete tests. */
  let shared: TrainingUploadResult;
  beforeAll(async () => {
    const res = await upload(env, alice, await photos(range(500, 6)));
    expect(res.statusCode).toBe(201);
    shared = res.json();
  });

  it('makes a set from 8 photos: stored upright without metadata, with thumbnails, listed and readable', async () => {
    const parts = await photos(range(1, 7));
    parts.push({ filename: 'IMG_0001.JPG', data: await sidewaysJpegWithGps(800, 600) });
    const res = await upload(env, carol, parts);
    expect(res.statusCode).toBe(201);
    const set = res.json() as TrainingUploadResult;
    expect(set.refused).toEqual([]);
    expect(set.photos.map((p) => p.filename)).toEqual([
      ...range(1, 7).map((s) => `photo-${s}.jpg`),
      'IMG_0001.JPG',
    ]);
    expect(
      set.photos.slice(0, 7).every((p) => p.width === 640 && p.height === 560 && p.hints.length === 0),
    ).toBe(true);
    // The sideways phone photo comes out upright, its EXIF (GPS) and XMP gone.
    const phone = set.photos[7]!;
    expect([phone.width, phone.height]).toEqual([600, 800]);
    const [row] = await env.container.database.db
      .select()
      .from(trainingImages)
      .where(eq(trainingImages.id, phone.id));
    expect(row!.storageKey).toBe(`users/${carol.userId}/training/${set.id}/${phone.id}.jpg`);
    const stored = await buffer((await env.container.storage.get(row!.storageKey)).body);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(stored.includes('secret-xmp-person')).toBe(false);
    const thumb = await sharp(
      await buffer((await env.container.storage.get(row!.thumbnailKey)).body),
    ).metadata();
    expect(thumb.format).toBe('webp');
    expect(trainingFiles(env, carol.userId)).toHaveLength(16);

    const read = await carol.call('GET', `/api/training_sets/${set.id}`);
    expect(read.statusCode).toBe(200);
    expect((read.json() as TrainingSetView).photos.map((p) => p.id)).toEqual(set.photos.map((p) => p.id));
    const list = (await carol.call('GET', '/api/training_sets')).json() as { sets: TrainingSetView[] };
    expect(list.sets.map((s) => s.id)).toEqual([set.id]);
    // Signed URLs serve the files.
    const file = await env.app.inject({ method: 'GET', url: set.photos[0]!.thumbnail_url });
    expect(file.statusCode).toBe(200);

    // The training job's view of the set: its photos in order, the first thumbnail as cover.
    const deps = { db: env.container.database.db, storage: env.container.storage };
    const loaded = await loadTrainingPhotos(deps, carol.userId, set.id);
    expect(loaded!.photos).toHaveLength(8);
    expect(loaded!.photos[7]).toMatchObject({ width: 600, height: 800, contentType: 'image/jpeg' });
    expect(loaded!.coverKey).toBe(await firstThumbnail(env, set.id));
    expect(await loadTrainingPhotos(deps, bob.userId, set.id)).toBeUndefined();
    expect(await env.container.services.trainingSets.ownedSet(carol.userId, set.id)).toEqual({
      id: set.id,
      photoCount: 8,
    });
    expect(await env.container.services.trainingSets.ownedSet(bob.userId, set.id)).toBeUndefined();
  });

  it('makes a set from a zip, skipping folders, __MACOSX and dotfiles, refusing nested archives and non-images by name', async () => {
    const parts = await photos(range(20, 6));
    const zip = buildZip([
      { name: 'holiday/', data: Buffer.alloc(0), method: 'store' },
      ...parts.map((p, i) => ({
        name: `holiday/${p.filename}`,
        data: p.data as Buffer,
        method: i % 2 ? ('store' as const) : ('deflate' as const),
      })),
      { name: '__MACOSX/holiday/._photo-20.jpg', data: Buffer.from('resource fork') },
      { name: 'holiday/.DS_Store', data: Buffer.from('finder') },
      { name: 'holiday/more.zip', data: buildZip([{ name: 'x.jpg', data: parts[0]!.data as Buffer }]) },
      { name: 'holiday/notes.jpg', data: Buffer.from('just some text, not a photo') },
    ]);
    const res = await upload(env, alice, [
      { filename: 'holiday.zip', data: zip, contentType: 'application/zip' },
    ]);
    expect(res.statusCode).toBe(201);
    const set = res.json() as TrainingUploadResult;
    expect(set.photos.map((p) => p.filename)).toEqual(parts.map((p) => `holiday/${p.filename}`));
    expect(set.refused).toEqual([
      { filename: 'holiday/more.zip', reason: expect.stringContaining('archive inside the zip') },
      { filename: 'holiday/notes.jpg', reason: NOT_AN_IMAGE },
    ]);
  });

  it('refuses a zip bomb (1 GB of zeros) at once, keeping nothing', async () => {
    const bob = await someone();
    const zip = buildZip([
      ...(await photos(range(40, 5))).map((p) => ({ name: p.filename, data: p.data as Buffer })),
      { name: 'zeros.jpg', data: Buffer.alloc(0), raw: zerosDeflated(1024) },
    ]);
    expect(zip.length).toBeLessThan(3 * 1024 * 1024);
    const started = performance.now();
    const res = await upload(env, bob, [{ filename: 'bomb.zip', data: zip }]);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toMatch(/unpacks to more than 512 MB; nothing in it was used/);
    expect(await setRows(env, bob.userId)).toEqual([]);
    expect(trainingFiles(env, bob.userId)).toEqual([]);
  });

  it('refuses a zip whose entry inflates past the size it declares, keeping nothing', async () => {
    const bob = await someone();
    // It starts like a JPEG, so it is inflated (what is not an image by its first bytes never is).
    const bomb = zerosDeflated(64);
    const jpegStart = deflateRawSync(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), {
      finishFlush: constants.Z_FULL_FLUSH,
    });
    const zip = buildZip([
      ...(await photos(range(50, 5))).map((p) => ({ name: p.filename, data: p.data as Buffer })),
      {
        name: 'small.jpg',
        data: Buffer.alloc(0),
        raw: { ...bomb, compressed: Buffer.concat([jpegStart, bomb.compressed]), size: 1000 },
      },
    ]);
    const res = await upload(env, bob, [{ filename: 'liar.zip', data: zip }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/sizes other than the ones it declares/);
    expect(trainingFiles(env, bob.userId)).toEqual([]);
  });

  it('refuses a zip of 100 entries of 5 MB of zeros from their first bytes, inflating a few KB of each', async () => {
    const bob = await someone();
    const zeros = zerosDeflated(5);
    const zip = buildZip(
      range(1, 100).map((i) => ({ name: `zeros-${i}.jpg`, data: Buffer.alloc(0), raw: zeros })),
    );
    expect(zip.length).toBeLessThan(600 * 1024); // ~0.5 MB sent, 500 MB if inflated
    const inflatedBefore = zipInflatedBytes();
    const res = await upload(env, bob, [{ filename: 'zeros.zip', data: zip }]);
    const inflated = zipInflatedBytes() - inflatedBefore;

    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(
      `Only 0 of the 100 files sent are usable photos, and a training set needs at least 5. Not used: ${range(
        1,
        8,
      )
        .map((i) => `zeros-${i}.jpg (${NOT_AN_IMAGE.replace(/\.$/, '')})`)
        .join('; ')}; and 92 more.`,
    );
    // Each entry's first bytes only: ~1 KB of zeros per entry looked at, never its 5 MB.
    expect(inflated).toBeLessThan(100 * 4 * 1024);
    expect(await setRows(env, bob.userId)).toEqual([]);
    expect(trainingFiles(env, bob.userId)).toEqual([]);
  });

  it('refuses a zip of 100 entries of a PNG signature and 5 MB of zeros without inflating them', async () => {
    const bob = await someone();
    // The signature passes the first-bytes check; how far each entry packs (~1000:1) gives it away.
    const pngStart = deflateRawSync(Buffer.from('89504e470d0a1a0a', 'hex'), {
      finishFlush: constants.Z_FULL_FLUSH,
    });
    const zeros = zerosDeflated(5);
    const raw = { ...zeros, compressed: Buffer.concat([pngStart, zeros.compressed]), size: zeros.size + 8 };
    const zip = buildZip(range(1, 100).map((i) => ({ name: `zeros-${i}.png`, data: Buffer.alloc(0), raw })));
    const inflatedBefore = zipInflatedBytes();
    const res = await upload(env, bob, [{ filename: 'zeros.zip', data: zip }]);
    const inflated = zipInflatedBytes() - inflatedBefore;

    expect(inflated).toBeLessThan(100 * 4 * 1024);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(
      /^Only 0 of the 100 files sent are usable photos, and a training set needs at least 5\. Not used: zeros-1\.png \(This file is not an image we can read/,
    );
    expect(trainingFiles(env, bob.userId)).toEqual([]);
  });

  it.each([['../../escape.jpg'], ['/etc/escape.jpg'], ['photos/../../escape.jpg'], ['..\\..\\escape.jpg']])(
    'refuses a zip with the path %s as a whole',
    async (name) => {
      const bob = await someone();
      const parts = await photos(range(60, 5));
      const zip = buildZip([
        ...parts.map((p) => ({ name: p.filename, data: p.data as Buffer })),
        { name, data: parts[0]!.data as Buffer },
      ]);
      const res = await upload(env, bob, [{ filename: 'sneaky.zip', data: zip }]);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/path leaves the zip/);
      expect(trainingFiles(env, bob.userId)).toEqual([]);
    },
  );

  it('refuses a zip of 31 usable photos, deleting the files it had written', async () => {
    const bob = await someone();
    const zip = buildZip(
      (await photos(range(600, 31))).map((p) => ({
        name: p.filename,
        data: p.data as Buffer,
        method: 'store' as const,
      })),
    );
    const res = await upload(env, bob, [{ filename: 'many.zip', data: zip }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(
      'This upload has more than 30 usable photos; a training set holds at most 30. Choose your best 30.',
    );
    expect(trainingFiles(env, bob.userId)).toEqual([]);
    expect(await setRows(env, bob.userId)).toEqual([]);
  });

  it('refuses a zip of more than 100 files as a whole', async () => {
    const bob = await someone();
    const [photo] = await photos([65]);
    const zip = buildZip(
      range(1, 101).map((i) => ({
        name: `p${i}.jpg`,
        data: photo!.data as Buffer,
        method: 'store' as const,
      })),
    );
    const res = await upload(env, bob, [{ filename: 'many.zip', data: zip }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toBe('This zip has 101 files; a zip of training photos may have at most 100.');
    expect(trainingFiles(env, bob.userId)).toEqual([]);
  });

  it('refuses more than 30 files before looking at any', async () => {
    const bob = await someone();
    const parts = range(1, 31).map((i) => ({ filename: `p${i}.jpg`, data: `not a photo ${i}` }));
    const res = await upload(env, bob, parts);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(
      `This upload has more than ${TRAINING_MAX_PHOTOS} files; a training set holds at most ${TRAINING_MAX_PHOTOS} photos. Choose your best ${TRAINING_MAX_PHOTOS}.`,
    );
    expect(await setRows(env, bob.userId)).toHaveLength(0);
  });

  it('refuses a new set of 4 photos, saying how many were usable', async () => {
    const bob = await someone();
    const res = await upload(env, bob, await photos(range(70, 4)));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(
      'Only 4 of the 4 files sent are usable photos, and a training set needs at least 5.',
    );
    expect(await setRows(env, bob.userId)).toHaveLength(0);
    expect(trainingFiles(env, bob.userId)).toEqual([]);
  });

  it('refuses a text file named .jpg, a too-small photo and a duplicate by name, keeping the rest', async () => {
    const bob = await someone();
    const good = await photos(range(80, 5));
    const copy = await sharp(good[1]!.data as Buffer)
      .jpeg({ quality: 75 })
      .toBuffer();
    const res = await upload(env, bob, [
      ...good,
      { filename: 'notes.jpg', data: 'Dear diary, this is not a photo.' },
      { filename: 'tiny.jpg', data: await seededPhoto(99, 600, 400) },
      { filename: 'again.jpg', data: copy },
    ]);
    expect(res.statusCode).toBe(201);
    const set = res.json() as TrainingUploadResult;
    expect(set.photos).toHaveLength(5);
    expect(set.refused).toEqual([
      { filename: 'notes.jpg', reason: NOT_AN_IMAGE },
      { filename: 'tiny.jpg', reason: 'Too small: 600×400; photos need at least 512 px on the short side.' },
      { filename: 'again.jpg', reason: 'Duplicate: the same photo as photo-81.jpg.' },
    ]);
    expect(trainingFiles(env, bob.userId)).toHaveLength(10);
  });

  it('names the refused files when too few photos are left', async () => {
    const bob = await someone();
    const res = await upload(env, bob, [
      ...(await photos(range(90, 4))),
      { filename: 'notes.jpg', data: 'not a photo' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe(
      `Only 4 of the 5 files sent are usable photos, and a training set needs at least 5. Not used: notes.jpg (${NOT_AN_IMAGE.replace(/\.$/, '')}).`,
    );
    expect(trainingFiles(env, bob.userId)).toEqual([]);
  });

  it('hints at blurry photos and photos without a clear subject without refusing them', async () => {
    const bob = await someone();
    const blurry = await seededPhoto(110, 640, 560, { blur: 4 });
    const plain = await sharp({ create: { width: 640, height: 560, channels: 3, background: '#7a8a9a' } })
      .jpeg()
      .toBuffer();
    const res = await upload(env, bob, [
      ...(await photos(range(111, 4))),
      { filename: 'blurry.jpg', data: blurry },
      { filename: 'wall.jpg', data: plain },
    ]);
    expect(res.statusCode).toBe(201);
    const set = res.json() as TrainingUploadResult;
    const hints = Object.fromEntries(set.photos.map((p) => [p.filename, p.hints]));
    expect(hints['blurry.jpg']).toEqual([BLURRY_HINT]);
    expect(hints['wall.jpg']).toContain(NO_SUBJECT_HINT);
    expect(hints['photo-111.jpg']).toEqual([]);

    // Kept with the photo: every later view of the set shows the same hints, extending included.
    const byName = (view: TrainingSetView) =>
      Object.fromEntries(view.photos.map((p) => [p.filename, p.hints]));
    const read = (await bob.call('GET', `/api/training_sets/${set.id}`)).json() as TrainingSetView;
    expect(byName(read)).toEqual(hints);
    const list = (await bob.call('GET', '/api/training_sets')).json() as { sets: TrainingSetView[] };
    expect(list.sets.map(byName)).toEqual([hints]);
    const extended = await post(env, bob, `/api/training_sets/${set.id}/photos`, [
      { filename: 'blurry-too.jpg', data: await seededPhoto(118, 640, 560, { blur: 4 }) },
    ]);
    expect(extended.statusCode).toBe(200);
    expect(byName(extended.json() as TrainingSetView)).toEqual({ ...hints, 'blurry-too.jpg': [BLURRY_HINT] });
    const stored = await env.container.database.db
      .select({ filename: trainingImages.filename, hints: trainingImages.hints })
      .from(trainingImages)
      .where(eq(trainingImages.setId, set.id));
    expect(Object.fromEntries(stored.map((r) => [r.filename, r.hints]))).toEqual({
      ...hints,
      'blurry-too.jpg': [BLURRY_HINT],
    });
  });

  it('answers 404 for another person’s set on every endpoint, changing nothing', async () => {
    const id = shared.id;
    const photo = shared.photos[0]!.id;
    const extend = await post(env, bob, `/api/training_sets/${id}/photos`, await photos([130]));
    const answers = [
      await bob.call('GET', `/api/training_sets/${id}`),
      extend,
      await bob.call('DELETE', `/api/training_sets/${id}/photos/${photo}`),
      await bob.call('DELETE', `/api/training_sets/${id}`),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('No such training set.');
    }
    expect(((await bob.call('GET', '/api/training_sets')).json() as { sets: unknown[] }).sets).toEqual([]);
    const mine = (await alice.call('GET', `/api/training_sets/${id}`)).json() as TrainingSetView;
    expect(mine.photos).toHaveLength(6);
  });

  it('asks for a session', async () => {
    expect((await upload(env, undefined, await photos([140]))).statusCode).toBe(401);
    expect((await env.app.inject({ method: 'GET', url: '/api/training_sets' })).statusCode).toBe(401);
  });

  it('deletes a photo and then the set, with their files', async () => {
    const bob = await someone();
    const res = await upload(env, bob, await photos(range(150, 5)));
    const set = res.json() as TrainingUploadResult;
    expect(trainingFiles(env, bob.userId)).toHaveLength(10);
    const [first] = set.photos;
    const [row] = await env.container.database.db
      .select()
      .from(trainingImages)
      .where(eq(trainingImages.id, first!.id));
    const after = await bob.call('DELETE', `/api/training_sets/${set.id}/photos/${first!.id}`);
    expect(after.statusCode).toBe(200);
    expect((after.json() as TrainingSetView).photos).toHaveLength(4);
    expect(await env.container.storage.exists(row!.storageKey)).toBe(false);
    expect(await env.container.storage.exists(row!.thumbnailKey)).toBe(false);
    expect(trainingFiles(env, bob.userId)).toHaveLength(8);
    expect((await bob.call('DELETE', `/api/training_sets/${set.id}/photos/${first!.id}`)).statusCode).toBe(
      404,
    );

    const gone = await bob.call('DELETE', `/api/training_sets/${set.id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ deleted: true });
    expect(trainingFiles(env, bob.userId)).toEqual([]);
    expect(await setRows(env, bob.userId)).toHaveLength(0);
    expect((await bob.call('GET', `/api/training_sets/${set.id}`)).statusCode).toBe(404);
  });

  it('extends a set up to 30 photos and no further', async () => {
    const bob = await someone();
    const res = await upload(env, bob, await photos(range(200, 26)));
    expect(res.statusCode).toBe(201);
    const set = res.json() as TrainingUploadResult;
    const url = `/api/training_sets/${set.id}/photos`;

    const past = await post(env, bob, url, await photos(range(230, 5)));
    expect(past.statusCode).toBe(400);
    expect(past.json().detail).toBe(
      'This set has 26 photos; adding 5 would make 31, and a set holds at most 30. Remove some or add fewer.',
    );
    expect(trainingFiles(env, bob.userId)).toHaveLength(52);

    // A duplicate of a photo already in the set is refused by name; the rest are added.
    const more = await post(env, bob, url, [
      ...(await photos(range(240, 4))),
      { filename: 'again.jpg', data: await seededPhoto(200, 640, 560) },
    ]);
    expect(more.statusCode).toBe(200);
    const extended = more.json() as TrainingUploadResult;
    expect(extended.photos).toHaveLength(30);
    expect(extended.refused).toEqual([
      { filename: 'again.jpg', reason: 'Duplicate: the same photo as photo-200.jpg.' },
    ]);

    const full = await post(env, bob, url, await photos([250]));
    expect(full.statusCode).toBe(400);
    expect(full.json().detail).toBe(
      'This set already has 30 photos, the most a set holds; remove some first.',
    );
    expect(trainingFiles(env, bob.userId)).toHaveLength(60);
  });

  it('refuses photos mixed with a zip, and a form without files', async () => {
    const bob = await someone();
    const [photo] = await photos([260]);
    const zip = buildZip([{ name: 'a.jpg', data: photo!.data as Buffer }]);
    const mixed = await upload(env, bob, [photo!, { filename: 'a.zip', data: zip }]);
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().detail).toBe('Send either photos or one zip of them, not both and not several zips.');
    const wrongField = await upload(env, bob, [{ ...photo!, name: 'file' }]);
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().detail).toMatch(/"file" is not a field of this form/);
  });
});

describe(`training photos over the size limit on ${testDb}`, () => {
  const env = useTestEnv({ workers: false, env: { UPLOAD_MAX_BYTES: String(100 * 1024) } });
  const erin = useSignedIn(env, 'erin');

  it('refuses a photo over UPLOAD_MAX_BYTES by name, sent alone or in a zip, keeping the rest', async () => {
    const grainy = await sharp({
      create: {
        width: 700,
        height: 600,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(grainy.length).toBeGreaterThan(100 * 1024);
    const good = await photos(range(400, 5));
    const sent = await upload(env, erin, [...good, { filename: 'grainy.jpg', data: grainy }]);
    expect(sent.statusCode).toBe(201);
    const reason = (sent.json() as TrainingUploadResult).refused;
    expect(reason).toEqual([
      {
        filename: 'grainy.jpg',
        reason: `Too large: ${formatBytes(grainy.length)}; each photo may be at most 100 KB.`,
      },
    ]);
    const zip = buildZip([
      ...(await photos(range(410, 5))).map((p) => ({ name: p.filename, data: p.data as Buffer })),
      { name: 'grainy.jpg', data: grainy, method: 'store' },
    ]);
    const zipped = await upload(env, erin, [{ filename: 'set.zip', data: zip }]);
    expect(zipped.statusCode).toBe(201);
    expect((zipped.json() as TrainingUploadResult).refused).toEqual(reason);
  });

  it('refuses a zip that unpacks to more than a full set of the largest photos needs (30 × 100 KB)', async () => {
    const zip = buildZip([
      ...(await photos(range(420, 5))).map((p) => ({ name: p.filename, data: p.data as Buffer })),
      { name: 'zeros.jpg', data: Buffer.alloc(0), raw: zerosDeflated(3) },
    ]);
    const res = await upload(env, erin, [{ filename: 'big.zip', data: zip }]);
    expect(res.statusCode).toBe(413);
    expect(res.json().detail).toMatch(
      new RegExp(`^This zip unpacks to more than ${formatBytes(30 * 100 * 1024)}; nothing in it was used`),
    );
    expect(trainingFiles(env, erin.userId)).toHaveLength(20); // the first test's two sets only
  });
});

describe(`training photos and the upload quota on ${testDb}`, () => {
  const env = useTestEnv({ workers: false, env: { UPLOAD_QUOTA_BYTES: String(128 * 1024) } });
  const dana = useSignedIn(env, 'dana');

  it('counts training photos as uploads: a set over the quota is refused and stores nothing', async () => {
    const parts = await photos(range(300, 5));
    const bytes = parts.reduce((sum, p) => sum + (p.data as Buffer).length, 0);
    // The photos are stored as sent (upright JPEGs keep their data): five fit, ten do not.
    expect(bytes).toBeLessThan(128 * 1024);
    expect(bytes * 2).toBeGreaterThan(128 * 1024);
    expect((await upload(env, dana, parts)).statusCode).toBe(201);

    const over = await upload(env, dana, await photos(range(310, 5)));
    expect(over.statusCode).toBe(413);
    expect(over.json().detail).toMatch(/^Your uploads use .* of your 128 KB of storage/);
    expect(trainingFiles(env, dana.userId)).toHaveLength(10);
    expect(await setRows(env, dana.userId)).toHaveLength(1);
  });
});

async function firstThumbnail(env: TestEnv, setId: string): Promise<string | undefined> {
  const [row] = await env.container.database.db
    .select()
    .from(trainingImages)
    .where(eq(trainingImages.setId, setId))
    .orderBy(trainingImages.createdAt)
    .limit(1);
  return row?.thumbnailKey;
}
