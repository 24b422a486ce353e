import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../errors.ts';
import type { IncomingFile } from './tools.service.ts';

/**
 * Fetches an image a person pointed us at (edit_image's image_url) so it can be stored like an upload.
 * Only http(s); private, loopback and link-local addresses are refused unless the operator allows them,
 * so the server cannot be steered at internal services; redirects are followed by hand so each hop
 * is checked; size and time are bounded.
 */

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 15_000;

const refused = (why: string) => new AppError('VALIDATION_FAILED', `We could not fetch image_url: ${why}`);

async function assertPublic(url: URL) {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0) throw refused(`the host ${host} could not be found.`);
  for (const a of addresses) {
    if (PRIVATE.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4')) {
      throw refused('it points at a private network address.');
    }
  }
}

export async function fetchImageUrl(
  raw: string,
  opts: { maxBytes: number; allowPrivate: boolean },
): Promise<IncomingFile> {
  let url = new URL(raw);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw refused('only http and https addresses work.');
    if (!opts.allowPrivate) await assertPublic(url);
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw refused('the address did not answer.');
    }
    if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw refused('it redirected too many times.');
      url = new URL(response.headers.get('location')!, url);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw refused(`the address answered ${response.status}.`);
    }
    const bytes = await readLimited(response, opts.maxBytes);
    const name = decodeURIComponent(url.pathname.split('/').pop() || 'image');
    return { filename: name.slice(0, 200), bytes };
  }
}

async function readLimited(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  const limit = `it is larger than the ${Math.round(maxBytes / 1024 / 1024)} MB limit.`;
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new AppError('PAYLOAD_TOO_LARGE', `We could not fetch image_url: ${limit}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body ?? []) {
    total += chunk.length;
    if (total > maxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `We could not fetch image_url: ${limit}`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
