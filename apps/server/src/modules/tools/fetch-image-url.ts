import { lookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, fetch, type Response } from 'undici';
import { AppError } from '../../errors.ts';
import type { IncomingFile } from './tools.service.ts';

/**
 * Fetches an image a person pointed us at (edit_image's image_url) so it can be stored like an upload.
 * Only http(s); private, loopback and link-local addresses are refused unless the operator allows them,
 * so the server cannot be steered at internal services. The check runs in the connection's own DNS
 * lookup, so the address checked is the address connected to (a host that answers differently the
 * second time, DNS rebinding, gains nothing); redirects are followed by hand so each hop is checked;
 * size and time are bounded.
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

const isPrivate = (address: string) => PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Thrown from the connection's lookup; recognised in the fetch error's causes. */
class PrivateAddressError extends Error {}

/** Connections whose DNS answers are checked before connecting; literal IPs are checked by the caller. */
const publicOnly = new Agent({
  connect: {
    lookup(hostname, options, callback) {
      lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, []);
        if (addresses.some((a) => isPrivate(a.address))) {
          return callback(new PrivateAddressError(`${hostname} resolves to a private address`), []);
        }
        // Node asks for all addresses when it races IPv4/IPv6, otherwise for one.
        if (options.all) return callback(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    },
  },
});

/** The first error in a fetch failure's cause chain that matches. */
function causeOf(err: unknown, match: (e: Error) => boolean): Error | undefined {
  for (let e = err; e instanceof Error; e = e.cause) if (match(e)) return e;
  return undefined;
}

export async function fetchImageUrl(
  raw: string,
  opts: { maxBytes: number; allowPrivate: boolean },
): Promise<IncomingFile> {
  let url = new URL(raw);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw refused('only http and https addresses work.');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!opts.allowPrivate && isIP(host) && isPrivate(host))
      throw refused('it points at a private network address.');
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(opts.allowPrivate ? {} : { dispatcher: publicOnly }),
      });
    } catch (err) {
      if (causeOf(err, (e) => e instanceof PrivateAddressError)) {
        throw refused('it points at a private network address.');
      }
      if (causeOf(err, (e) => (e as NodeJS.ErrnoException).code === 'ENOTFOUND')) {
        throw refused(`the host ${host} could not be found.`);
      }
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
