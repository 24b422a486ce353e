import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { S3Storage, type S3StorageConfig } from './s3.storage.ts';
import { describeStorageContract } from './storage.contract-suite.ts';

// The SDK warns once that Node 20 is leaving its support window; that is known (see docs/spec/ARCHITECTURE.md).
vi.stubEnv('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');

const BUCKET = 'lumina-test';
let server: S3rver;
let dir: string;
let config: S3StorageConfig;
const clients: S3Storage[] = [];

function make(overrides: Partial<S3StorageConfig> = {}) {
  const storage = new S3Storage({ ...config, ...overrides });
  clients.push(storage);
  return storage;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lumina-s3rver-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  config = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket: BUCKET,
    // s3rver's built-in account; it checks signatures, so presigning is really exercised.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
});

afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describeStorageContract('S3Storage', () => make());

describe('S3Storage specifics', () => {
  it('presigned URLs download the bytes, with the download name when asked', async () => {
    const storage = make();
    await storage.put('urls/out.png', Buffer.from('png bytes'), { contentType: 'image/png' });

    const plain = await fetch(await storage.url('urls/out.png', { expiresInSeconds: 60 }));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('image/png');
    expect(await plain.text()).toBe('png bytes');

    const named = await fetch(
      await storage.url('urls/out.png', { expiresInSeconds: 60, downloadName: 'Sunset café.png' }),
    );
    expect(named.status).toBe(200);
    expect(named.headers.get('content-disposition')).toBe(
      `attachment; filename="Sunset caf_.png"; filename*=UTF-8''Sunset%20caf%C3%A9.png`,
    );
  });

  // s3rver checks a V4 URL's expiry and access key but does not compute V4 signatures, so a
  // tampered-signature case would pass here and prove nothing; it is covered by AWS itself.
  it('refuses an expired presigned URL', async () => {
    await make().put('urls/secret.png', Buffer.from('x'));
    const anHourAgo = new Date(Date.now() - 3600_000);
    const expired = await make({ now: () => anHourAgo }).url('urls/secret.png', { expiresInSeconds: 60 });
    expect((await fetch(expired)).status).toBe(403);
  });

  it('check() fails for a missing bucket or an unknown access key', async () => {
    await expect(make({ bucket: 'no-such-bucket' }).check()).rejects.toThrow();
    await expect(make({ accessKeyId: 'NOBODY' }).check()).rejects.toThrow();
  });
});
