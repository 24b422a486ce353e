import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { beforeAll, describe, expect, it } from 'vitest';
import { StorageKeyError, StorageNotFoundError, type Storage } from './storage.ts';

export const INVALID_KEYS = [
  '',
  '../x',
  '/abs',
  'a/../b',
  'a/./b',
  '..',
  'a//b',
  'a/',
  'a b',
  'a\\b',
  'a%2Fb',
  'a~b',
  'photo\n.png',
  'café.png',
  'x'.repeat(513),
  `a/${'x'.repeat(201)}`,
];

async function readAll(storage: Storage, key: string) {
  const object = await storage.get(key);
  return { ...object, text: await text(object.body) };
}

/**
 * The behaviour every Storage backend must share; each backend's test file runs it against a real
 * store. Every test writes under its own random prefix so backends can share one bucket or root.
 */
export function describeStorageContract(name: string, makeStorage: () => Storage | Promise<Storage>) {
  describe(`${name}: Storage contract`, () => {
    let storage: Storage;
    const ns = () => `contract/${randomUUID()}`;

    beforeAll(async () => {
      storage = await makeStorage();
    });

    it('round-trips a Buffer with its size and content type', async () => {
      const key = `${ns()}/image.png`;
      expect(await storage.put(key, Buffer.from('hello png'), { contentType: 'image/png' })).toEqual({
        key,
        size: 9,
      });
      const got = await readAll(storage, key);
      expect(got).toMatchObject({ text: 'hello png', size: 9, contentType: 'image/png' });
    });

    it('round-trips a stream and a Uint8Array', async () => {
      const key = `${ns()}/stream.bin`;
      const chunks = Array.from({ length: 50 }, (_, i) => Buffer.from(`chunk-${i};`));
      const expected = Buffer.concat(chunks).toString();
      expect(await storage.put(key, Readable.from(chunks))).toEqual({ key, size: expected.length });
      expect((await readAll(storage, key)).text).toBe(expected);

      const bytesKey = `${ns()}/bytes.bin`;
      await storage.put(bytesKey, new Uint8Array([104, 105]));
      expect(await readAll(storage, bytesKey)).toMatchObject({ text: 'hi', size: 2 });
    });

    it('overwrites an existing key with the new body and content type', async () => {
      const key = `${ns()}/doc.txt`;
      await storage.put(key, Buffer.from('first version'), { contentType: 'text/plain' });
      await storage.put(key, Buffer.from('second'), { contentType: 'application/json' });
      expect(await readAll(storage, key)).toMatchObject({
        text: 'second',
        size: 6,
        contentType: 'application/json',
      });
    });

    it('reports existence and deletes idempotently', async () => {
      const key = `${ns()}/gone.png`;
      expect(await storage.exists(key)).toBe(false);
      await storage.put(key, Buffer.from('x'));
      expect(await storage.exists(key)).toBe(true);
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.delete(key)).resolves.toBeUndefined();
    });

    it('throws StorageNotFoundError for a missing key or a bare prefix', async () => {
      const base = ns();
      await expect(storage.get(`${base}/missing.png`)).rejects.toBeInstanceOf(StorageNotFoundError);
      await storage.put(`${base}/dir/file.png`, Buffer.from('x'));
      await expect(storage.get(`${base}/dir`)).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await storage.exists(`${base}/dir`)).toBe(false);
    });

    it('deletes by plain string prefix and returns the count', async () => {
      const base = ns();
      for (const key of ['u1/a.png', 'u1/sub/b.png', 'u1/sub/deeper/c.png', 'u10/d.png', 'u2/e.png']) {
        await storage.put(`${base}/${key}`, Buffer.from(key), { contentType: 'image/png' });
      }
      expect(await storage.deletePrefix(`${base}/u1/`)).toBe(3);
      expect(await storage.exists(`${base}/u1/a.png`)).toBe(false);
      expect(await storage.exists(`${base}/u10/d.png`)).toBe(true);
      // Without the trailing slash "u1" also matches "u10", exactly as S3 prefixes do.
      expect(await storage.deletePrefix(`${base}/u1`)).toBe(1);
      expect(await storage.exists(`${base}/u2/e.png`)).toBe(true);
      expect(await storage.deletePrefix(`${base}/nobody/`)).toBe(0);
    });

    it('refuses invalid keys on every operation', async () => {
      for (const key of INVALID_KEYS) {
        await expect(storage.put(key, Buffer.from('x')), JSON.stringify(key)).rejects.toBeInstanceOf(
          StorageKeyError,
        );
        await expect(storage.get(key)).rejects.toBeInstanceOf(StorageKeyError);
        await expect(storage.exists(key)).rejects.toBeInstanceOf(StorageKeyError);
        await expect(storage.delete(key)).rejects.toBeInstanceOf(StorageKeyError);
        await expect(storage.url(key, { expiresInSeconds: 60 })).rejects.toBeInstanceOf(StorageKeyError);
      }
      for (const prefix of ['', '/', '../', 'a/../']) {
        await expect(storage.deletePrefix(prefix), JSON.stringify(prefix)).rejects.toBeInstanceOf(
          StorageKeyError,
        );
      }
    });

    it('accepts a 512-character key and reports readiness', async () => {
      const base = ns();
      const long = `${'k'.repeat(200)}/${'m'.repeat(200)}/`;
      const key = `${base}/${long}${'n'.repeat(512 - base.length - 1 - long.length)}`;
      expect(key).toHaveLength(512);
      await storage.put(key, Buffer.from('long'));
      expect(await storage.exists(key)).toBe(true);
      await expect(storage.check()).resolves.toBeUndefined();
    });
  });
}
