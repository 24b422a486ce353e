import { mkdtempSync, readdirSync, rmSync, watch, type FSWatcher } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../../test/harness.ts';
import { useSignedIn } from '../../../test/support/api.ts';
import { filesForm, seededPhoto, type UploadPart } from './training-sets.test-helpers.ts';

/**
 * The form spools every file to a folder under os.tmpdir() (which follows TMPDIR): with TMPDIR
 * pointed at a folder of this test's own, what is left there after a request can be seen.
 */
describe(`the training form's temporary files on ${testDb}`, () => {
  const previous = process.env.TMPDIR;
  const own = mkdtempSync(path.join(tmpdir(), 'lumina-training-form-test-'));
  let watcher: FSWatcher;
  /** Names created or removed in `own` since the last test began (the spool folders). */
  let seen: string[] = [];

  beforeAll(() => {
    process.env.TMPDIR = own;
    expect(tmpdir()).toBe(own);
    watcher = watch(own, (_event, name) => {
      if (name) seen.push(name);
    });
  });
  afterAll(() => {
    watcher.close();
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(own, { recursive: true, force: true });
  });
  beforeEach(() => {
    seen = [];
  });

  const env = useTestEnv({ workers: false, env: { UPLOAD_MAX_BYTES: String(100 * 1024) } });
  const fay = useSignedIn(env, 'fay');

  async function upload(parts: UploadPart[]) {
    const form = filesForm(parts);
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/upload_train_images',
      headers: { ...form.headers, authorization: `Bearer ${fay.accessToken}` },
      payload: form.payload,
    });
    // Watch events arrive on the next turns of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return res;
  }

  /** The form's folders left in `own` (the test env keeps its own folder there too). */
  const spoolFolders = () => readdirSync(own).filter((name) => name.startsWith('lumina-training-'));

  const photos = (seeds: number[]) =>
    Promise.all(
      seeds.map(async (seed) => ({ filename: `p-${seed}.jpg`, data: await seededPhoto(seed, 640, 560) })),
    );

  it('leaves nothing behind after an accepted upload (one photo over the limit among them)', async () => {
    const oversize = { filename: 'big.jpg', data: Buffer.alloc(150 * 1024, 0xff) };
    const res = await upload([...(await photos([1, 2, 3, 4, 5])), oversize]);
    expect(res.statusCode).toBe(201);
    expect(res.json().refused).toEqual([
      { filename: 'big.jpg', reason: expect.stringMatching(/^Too large/) },
    ]);
    expect(seen.some((name) => name.startsWith('lumina-training-'))).toBe(true);
    expect(spoolFolders()).toEqual([]);
  });

  it('leaves nothing behind after a refused upload (too few usable photos)', async () => {
    const res = await upload([
      ...(await photos([11, 12])),
      { filename: 'notes.txt', data: Buffer.from('hello') },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^Only 2 of the 3 files sent are usable photos/);
    expect(seen.some((name) => name.startsWith('lumina-training-'))).toBe(true);
    expect(spoolFolders()).toEqual([]);
  });

  it('leaves nothing behind when the form itself is refused (a second zip after a photo)', async () => {
    const zipHead = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Buffer.alloc(18)]);
    const res = await upload([...(await photos([21])), { filename: 'set.zip', data: zipHead }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Send either photos or one zip of them, not both and not several zips.');
    expect(seen.some((name) => name.startsWith('lumina-training-'))).toBe(true);
    expect(spoolFolders()).toEqual([]);
  });
});
