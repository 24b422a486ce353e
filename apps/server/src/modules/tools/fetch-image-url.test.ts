import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { fetchImageUrl } from './fetch-image-url.ts';

describe('fetching an image_url', () => {
  let server: Server;
  let base: string;
  let hits = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      if (req.url === '/big') res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
      else if (req.url === '/stream') {
        // No content-length: the limit must hold while reading.
        res.writeHead(200);
        res.write(Buffer.alloc(3000));
        res.end(Buffer.alloc(3000));
      } else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else res.writeHead(200).end(Buffer.from('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (err: unknown) => (err instanceof AppError ? { status: err.status, detail: err.userMessage } : err),
    );

  it('refuses private and loopback addresses unless the operator allows them, before connecting', async () => {
    const before = hits;
    const port = new URL(base).port;
    // Literal addresses, and a name that resolves to loopback (checked where the connection looks it up).
    for (const url of [
      `${base}/a.png`,
      `http://localhost:${port}/a.png`,
      'http://10.1.2.3/a.png',
      'http://[::1]/a.png',
      'http://169.254.169.254/latest',
    ]) {
      expect(await refusal(fetchImageUrl(url, { maxBytes: 1000, allowPrivate: false }))).toEqual({
        status: 400,
        detail: 'We could not fetch image_url: it points at a private network address.',
      });
    }
    expect(hits).toBe(before);
    const file = await fetchImageUrl(`${base}/photo.png`, { maxBytes: 1000, allowPrivate: true });
    expect(file).toEqual({ filename: 'photo.png', bytes: Buffer.from('ok') });
  });

  it('stops at the size limit whether or not the size is declared, and at redirect loops', async () => {
    const opts = { maxBytes: 4000, allowPrivate: true };
    expect(await refusal(fetchImageUrl(`${base}/big`, opts))).toMatchObject({ status: 413 });
    expect(await refusal(fetchImageUrl(`${base}/stream`, opts))).toMatchObject({ status: 413 });
    expect(await refusal(fetchImageUrl(`${base}/loop`, opts))).toMatchObject({
      status: 400,
      detail: expect.stringMatching(/redirected too many times/),
    });
  });
});
