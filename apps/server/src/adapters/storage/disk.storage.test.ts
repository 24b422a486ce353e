import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage, signFileUrl, verifyFileSignature } from './disk.storage.ts';
import { describeStorageContract } from './storage.contract-suite.ts';

const SECRET = 'test-signing-secret';
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lumina-disk-storage-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describeStorageContract(
  'DiskStorage',
  () => new DiskStorage({ root: join(root, 'contract'), signingSecret: SECRET }),
);

describe('DiskStorage specifics', () => {
  const make = (dir: string, now?: () => Date) =>
    new DiskStorage({ root: join(root, dir), signingSecret: SECRET, now });

  it('writes atomically: no temp files remain and a failed upload keeps the previous object', async () => {
    const storage = make('atomic');
    await storage.put('u/a.png', Buffer.from('old'), { contentType: 'image/png' });
    await storage.put('u/b.bin', Readable.from([Buffer.from('streamed')]));

    // A stream that delivers some bytes, then dies like an aborted upload.
    const failing = () =>
      new Readable({
        read() {
          this.push(Buffer.from('partial'));
          this.destroy(new Error('client went away'));
        },
      });
    await expect(storage.put('u/a.png', failing(), { contentType: 'text/plain' })).rejects.toThrow(
      'client went away',
    );
    await expect(storage.put('u/new.png', failing())).rejects.toThrow('client went away');

    const files = await readdir(join(root, 'atomic'), { recursive: true });
    expect(files.filter((f) => f.includes('~tmp'))).toEqual([]);
    expect(files).not.toContain(join('u', 'new.png'));
    const old = await storage.get('u/a.png');
    expect({ text: await text(old.body), contentType: old.contentType }).toEqual({
      text: 'old',
      contentType: 'image/png',
    });
  });

  it('keeps a content type sidecar only when the extension does not imply the type', async () => {
    const storage = make('sidecars');
    await storage.put('u/a.png', Buffer.from('png'), { contentType: 'image/png' });
    await storage.put('u/b.png', Buffer.from('text'), { contentType: 'text/plain' });
    await storage.put('u/c.png', Buffer.from('none'));
    await storage.put('u/d.bin', Buffer.from('none'));
    await storage.put('u/e.thumb.webp', Buffer.from('webp'), { contentType: 'image/webp' });
    expect((await readdir(join(root, 'sidecars', 'u'))).sort()).toEqual([
      'a.png',
      'b.png',
      'b.png~meta.json',
      'c.png',
      'c.png~meta.json',
      'd.bin',
      'e.thumb.webp',
    ]);
    const typeOf = async (key: string) => {
      const object = await storage.get(key);
      object.body.destroy(); // closes the file
      return object.contentType;
    };
    const keys = ['u/a.png', 'u/b.png', 'u/c.png', 'u/d.bin', 'u/e.thumb.webp'];
    expect(await Promise.all(keys.map(typeOf))).toEqual([
      'image/png',
      'text/plain',
      undefined,
      undefined,
      'image/webp',
    ]);

    // Overwriting with the implied type drops the old sidecar, and the other way round.
    await storage.put('u/b.png', Buffer.from('png now'), { contentType: 'image/png' });
    await storage.put('u/a.png', Buffer.from('json now'), { contentType: 'application/json' });
    expect(await typeOf('u/b.png')).toBe('image/png');
    expect(await typeOf('u/a.png')).toBe('application/json');
  });

  it('creates missing folders, also after deletePrefix pruned them', async () => {
    const storage = make('folders');
    await storage.put('users/1/images/a.png', Buffer.from('a'), { contentType: 'image/png' });
    await storage.put('users/1/images/b.png', Readable.from([Buffer.from('b')]), {
      contentType: 'image/png',
    });
    expect(await storage.deletePrefix('users/1/')).toBe(2);
    await storage.put('users/1/images/c.png', Buffer.from('c'), { contentType: 'image/png' });
    expect(await text((await storage.get('users/1/images/c.png')).body)).toBe('c');
  });

  it('deletePrefix prunes the emptied directories', async () => {
    const storage = make('prune');
    await storage.put('users/7/a/b.png', Buffer.from('x'), { contentType: 'image/png' });
    await storage.put('users/8/c.png', Buffer.from('x'));
    expect(await storage.deletePrefix('users/7/')).toBe(1);
    expect(await readdir(join(root, 'prune', 'users'))).toEqual(['8']);
  });

  it('issues signed /api/files URLs that verify until they expire', async () => {
    const issuedAt = new Date('2030-01-01T00:00:00Z');
    const storage = make('urls', () => issuedAt);
    const url = new URL(await storage.url('users/1/out.png', { expiresInSeconds: 300 }), 'http://x');
    expect(url.pathname).toBe('/api/files/users/1/out.png');
    const expires = url.searchParams.get('expires') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    expect(Number(expires)).toBe(issuedAt.getTime() / 1000 + 300);

    const at = (seconds: number) => new Date(issuedAt.getTime() + seconds * 1000);
    expect(verifyFileSignature('users/1/out.png', expires, signature, SECRET, at(299))).toBe(true);
    expect(verifyFileSignature('users/1/out.png', expires, signature, SECRET, at(301))).toBe(false);
    expect(verifyFileSignature('users/2/out.png', expires, signature, SECRET, at(0))).toBe(false);
    expect(
      verifyFileSignature('users/1/out.png', String(Number(expires) + 3600), signature, SECRET, at(0)),
    ).toBe(false);
    const flipped = (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1);
    expect(verifyFileSignature('users/1/out.png', expires, flipped, SECRET, at(0))).toBe(false);
    expect(verifyFileSignature('users/1/out.png', expires, signature.slice(2), SECRET, at(0))).toBe(false);
    expect(verifyFileSignature('users/1/out.png', expires, signature, 'other-secret', at(0))).toBe(false);
    expect(verifyFileSignature('users/1/out.png', '1e12', signature, SECRET, at(0))).toBe(false);
    expect(verifyFileSignature('../etc/passwd', expires, signature, SECRET, at(0))).toBe(false);
  });

  it('signs the download name so it cannot be swapped', async () => {
    const storage = make('urls', () => new Date('2030-01-01T00:00:00Z'));
    const url = new URL(
      await storage.url('a.png', { expiresInSeconds: 60, downloadName: 'My photo.png' }),
      'http://x',
    );
    const [expires, signature] = [
      url.searchParams.get('expires') ?? '',
      url.searchParams.get('signature') ?? '',
    ];
    const now = new Date('2030-01-01T00:00:30Z');
    expect(url.searchParams.get('download')).toBe('My photo.png');
    expect(verifyFileSignature('a.png', expires, signature, SECRET, now, 'My photo.png')).toBe(true);
    expect(verifyFileSignature('a.png', expires, signature, SECRET, now, 'evil.html')).toBe(false);
    expect(verifyFileSignature('a.png', expires, signature, SECRET, now)).toBe(false);
    expect(signature).toBe(signFileUrl('a.png', Number(expires), SECRET, 'My photo.png'));
  });

  it('check() fails when the root cannot be created', async () => {
    await make('blocker').put('file', Buffer.from('x'));
    await expect(make('blocker/file/below').check()).rejects.toThrow();
  });
});
