import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { balanceOf, signedInClient, type Client } from '../../../test/support/api.ts';
import { images } from '../../db/schema/index.ts';
import { multipartForm, photo, type FormPart, filesOf } from './uploads.test-helpers.ts';

describe(`upload storage quota on ${testDb}`, () => {
  let env: TestEnv;
  let picture: Buffer;

  const post = (client: Client, url: string, parts: FormPart[]) => {
    const form = multipartForm(parts);
    return env.app.inject({
      method: 'POST',
      url,
      headers: { ...form.headers, authorization: `Bearer ${client.accessToken}` },
      payload: form.payload,
    });
  };
  const upload = (client: Client) =>
    post(client, '/api/images/upload', [
      { name: 'file', filename: 'photo.jpg', contentType: 'image/jpeg', data: picture },
    ]);
  const rowsOf = (userId: string) =>
    env.container.database.db.select().from(images).where(eq(images.userId, userId));

  beforeAll(async () => {
    picture = await photo('jpeg', 400, 300);
    // Room for one of these pictures, not two.
    env = await startTestEnv({
      workers: false,
      env: { UPLOAD_QUOTA_BYTES: String(Math.floor(picture.length * 1.5)) },
    });
  });
  afterAll(() => env.close());

  it('refuses an upload past the quota with 413, storing nothing; deleting frees the space', async () => {
    const alice = await signedInClient(env, 'alice');
    const first = await upload(alice);
    expect(first.statusCode, first.body).toBe(201);
    const filesBefore = filesOf(env, alice.userId);

    const refused = await upload(alice);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      detail: expect.stringMatching(
        /^file: Your uploads use .+ of your .+ of storage, and this one needs .+ more\. Delete some uploads to make room\.$/,
      ),
      code: 'PAYLOAD_TOO_LARGE',
      requestId: refused.headers['x-request-id'],
    });
    expect(await rowsOf(alice.userId)).toHaveLength(1);
    expect(filesOf(env, alice.userId)).toEqual(filesBefore);

    // Uploads through an image tool count too: refused before any charge.
    const balance = await balanceOf(alice);
    const edit = await post(alice, '/api/generate/falai/edit_image_file', [
      { name: 'image_file', filename: 'photo.jpg', contentType: 'image/jpeg', data: picture },
      { name: 'prompt', data: 'warmer light' },
    ]);
    expect(edit.statusCode, edit.body).toBe(413);
    expect(edit.json().detail).toMatch(/^image_file: Your uploads use/);
    expect(await balanceOf(alice)).toBe(balance);
    expect(await rowsOf(alice.userId)).toHaveLength(1);
    expect(filesOf(env, alice.userId)).toEqual(filesBefore);

    const deleted = await alice.call('DELETE', `/api/images/${first.json().id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await upload(alice)).statusCode).toBe(201);
  });

  it('lets only one of two simultaneous uploads through when both would not fit', async () => {
    const bob = await signedInClient(env, 'bob');
    const results = await Promise.all([upload(bob), upload(bob)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 413]);
    const rows = await rowsOf(bob.userId);
    expect(rows).toHaveLength(1);
    // The refused upload's files were removed: only the stored one's remain.
    const files = filesOf(env, bob.userId);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file).toContain(rows[0]!.id);
  });

  it('is per person', async () => {
    const carol = await signedInClient(env, 'carol');
    expect((await upload(carol)).statusCode).toBe(201);
  });
});
