import { lookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { Agent, fetch, type Response } from 'undici';
import { AppError } from '../../errors.ts';
import type { IncomingFile } from '../uploads/multipart.ts';

/**
 * Fetches an image a person pointed us at (edit_image's image_url) so it can be stored like an upload.
 * Only http(s); addresses that are not globally routable, and the machine's own, are refused unless the
 * operator allows private addresses (IMAGE_URL_ALLOW_PRIVATE), so the server cannot be steered at
 * internal services. The check runs in the connection's own DNS
 * lookup, so the address checked is the address connected to (a host that answers differently the
 * second time, DNS rebinding, gains nothing); redirects are followed by hand so each hop is checked;
 * size and time are bounded.
 */

/**
 * Only globally routable unicast addresses may be fetched: ipaddr.js names every special-purpose range
 * (private, loopback, link-local, carrier-grade NAT, documentation 192.0.2/24, benchmarking 198.18/15,
 * reserved 240/4, multicast, IPv4-mapped, unique-local, …) and calls what is left "unicast". The
 * machine's own addresses are refused too: a public address of this host reaches its own services.
 */
export function isForbiddenAddress(address: string, own: ReadonlySet<string> = ownAddresses()): boolean {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() turns an IPv4-mapped IPv6 address (::ffff:10.0.0.1) into the IPv4 address it carries.
    ip = ipaddr.process(address);
  } catch {
    return true;
  }
  return ip.range() !== 'unicast' || own.has(ip.toNormalizedString());
}

/** This machine's addresses, normalised. Read on every check: interfaces come and go (DHCP, containers). */
export function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) {
      try {
        own.add(ipaddr.process(entry.address.replace(/%.*$/, '')).toNormalizedString());
      } catch {
        // An address ipaddr.js cannot read is not one a URL can name either.
      }
    }
  }
  return own;
}

const MAX_REDIRECTS = 3;
const TIMEOUT_MS = 15_000;

const refused = (why: string) => new AppError('VALIDATION_FAILED', `We could not fetch image_url: ${why}`);

/** Thrown from the connection's lookup; recognised in the fetch error's causes. */
class PrivateAddressError extends Error {}

/** Connections whose DNS answers are checked before connecting; literal IPs are checked by the caller. */
const publicOnly = new Agent({
  connect: {
    lookup(hostname, options, callback) {
      lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, []);
        if (addresses.some((a) => isForbiddenAddress(a.address))) {
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
    if (!opts.allowPrivate && isIP(host) && isForbiddenAddress(host))
      throw refused('it points at an address that is not on the public internet.');
    let response: Response;
    try {
      response = await fetch(url, {
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        ...(opts.allowPrivate ? {} : { dispatcher: publicOnly }),
      });
    } catch (err) {
      if (causeOf(err, (e) => e instanceof PrivateAddressError)) {
        throw refused('it points at an address that is not on the public internet.');
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
    return { filename: fileNameOf(url), bytes };
  }
}

/** The last path segment as a label: decoded when it decodes (a broken escape like %A keeps its raw form). */
function fileNameOf(url: URL): string {
  const last = url.pathname.split('/').pop() || 'image';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // URIError: not valid percent-encoded UTF-8. The name is only a label; keep it as written.
  }
  // By code point, so a surrogate pair is never cut in half.
  return Array.from(name).slice(0, 200).join('');
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
