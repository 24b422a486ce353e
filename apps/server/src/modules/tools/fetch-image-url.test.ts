import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { fetchImageUrl, isForbiddenAddress, ownAddresses } from './fetch-image-url.ts';

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
        detail: 'We could not fetch image_url: it points at an address that is not on the public internet.',
      });
    }
    expect(hits).toBe(before);
    const file = await fetchImageUrl(`${base}/photo.png`, { maxBytes: 1000, allowPrivate: true });
    expect(file).toEqual({ filename: 'photo.png', bytes: Buffer.from('ok') });
  });

  it('refuses every address that is not globally routable, one of each special range', () => {
    const own = new Set<string>();
    for (const address of [
      '0.0.0.0', // 0/8 "this network"
      '0.1.2.3',
      '10.1.2.3', // 10/8
      '100.64.0.1', // 100.64/10 carrier-grade NAT
      '100.127.255.254',
      '127.0.0.1', // 127/8
      '127.255.0.9',
      '169.254.169.254', // link-local (cloud metadata)
      '172.16.0.1', // 172.16/12
      '172.31.255.255',
      '192.0.0.8', // 192.0.0/24 IETF protocol assignments
      '192.0.2.1', // 192.0.2/24 TEST-NET-1
      '192.88.99.1', // 6to4 relay anycast
      '192.168.1.1', // 192.168/16
      '198.18.0.1', // 198.18/15 benchmarking
      '198.19.255.254',
      '198.51.100.7', // TEST-NET-2
      '203.0.113.9', // TEST-NET-3
      '224.0.0.1', // multicast 224/4
      '239.255.255.250',
      '240.0.0.1', // 240/4 reserved
      '250.1.2.3',
      '255.255.255.255', // broadcast
      '::', // unspecified
      '::1', // loopback
      '::ffff:10.0.0.1', // IPv4-mapped private
      '::ffff:127.0.0.1',
      'fc00::1', // unique local fc00::/7
      'fd12:3456::1',
      'fe80::1', // link-local
      'ff02::1', // multicast
      '2001:db8::1', // documentation
      '100::1', // discard
      'not an address',
    ]) {
      expect(isForbiddenAddress(address, own), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '151.101.1.69', '::ffff:8.8.8.8', '2606:4700:4700::1111']) {
      expect(isForbiddenAddress(address, own), address).toBe(false);
    }
  });

  it("refuses the machine's own addresses, public ones included", () => {
    // A public address of this host would reach its own services: listed as own, it is refused.
    expect(isForbiddenAddress('8.8.4.4', new Set(['8.8.4.4']))).toBe(true);
    expect(isForbiddenAddress('::ffff:8.8.4.4', new Set(['8.8.4.4']))).toBe(true);
    expect(isForbiddenAddress('8.8.8.8', new Set(['8.8.4.4']))).toBe(false);
    const mine = [...ownAddresses()];
    expect(mine.length).toBeGreaterThan(0);
    for (const address of mine) expect(isForbiddenAddress(address), address).toBe(true);
  });

  it('refuses literal reserved addresses in a URL before connecting', async () => {
    for (const url of ['http://192.0.2.10/a.png', 'http://198.18.5.5/a.png', 'http://240.0.0.1/a.png']) {
      expect(await refusal(fetchImageUrl(url, { maxBytes: 1000, allowPrivate: false }))).toEqual({
        status: 400,
        detail: 'We could not fetch image_url: it points at an address that is not on the public internet.',
      });
    }
  });

  it('names the file from a path with a broken percent-escape without failing', async () => {
    const file = await fetchImageUrl(`${base}/img/%E0%A4%A.png`, { maxBytes: 1000, allowPrivate: true });
    expect(file).toEqual({ filename: '%E0%A4%A.png', bytes: Buffer.from('ok') });
    const named = await fetchImageUrl(`${base}/img/caf%C3%A9.png`, { maxBytes: 1000, allowPrivate: true });
    expect(named.filename).toBe('café.png');
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
