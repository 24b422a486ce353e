import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** HTTP plumbing the fake servers share (vendors, sign-in providers), so each holds only its own API. */

/**
 * A fake's HTTP server on 127.0.0.1 (a free port unless one is given): `handle` answers every request,
 * and one it throws on gets a 500 naming the error (or is cut short, when the headers are already out).
 */
export async function startFakeServer(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>,
  port = 0,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { detail: String(error) });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const readBody = async (req: IncomingMessage) => (await readBytes(req)).toString('utf8');

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Follows an authorisation URL like a browser would and returns the callback URL's query. */
export async function followAuthorisation(authorisationUrl: string): Promise<Record<string, string>> {
  const res = await fetch(authorisationUrl, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (!location) throw new Error(`authorise failed: ${res.status} ${await res.text()}`);
  return Object.fromEntries(new URL(location).searchParams);
}

/** A request as the fake vendors record and route it. */
export async function readRequest(req: IncomingMessage, origin: string) {
  const raw = await readBytes(req);
  return {
    raw,
    body: raw.toString('utf8'),
    url: new URL(req.url ?? '/', origin),
    method: req.method ?? 'GET',
  };
}

/** An approved authorisation: back to the client's redirect URI with the code and the client's state. */
export function redirectWithCode(res: ServerResponse, query: URLSearchParams, code: string) {
  const back = new URL(query.get('redirect_uri')!);
  back.searchParams.set('code', code);
  if (query.get('state')) back.searchParams.set('state', query.get('state')!);
  return res.writeHead(302, { location: back.toString() }).end();
}

/** A refused authorisation: back to the client's redirect URI with the OAuth `error` and the client's state. */
export function redirectWithError(res: ServerResponse, query: URLSearchParams, error: string) {
  const back = new URL(query.get('redirect_uri')!);
  back.searchParams.set('error', error);
  if (query.get('state')) back.searchParams.set('state', query.get('state')!);
  return res.writeHead(302, { location: back.toString() }).end();
}

/** The client id and secret of an HTTP Basic `Authorization` header (form-encoded, RFC 6749 §2.3.1). */
export function basicCredentials(req: IncomingMessage): [string, string] | undefined {
  const header = req.headers.authorization;
  if (!header?.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6), 'base64').toString();
  const at = decoded.indexOf(':');
  if (at < 0) return undefined;
  const unform = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
  return [unform(decoded.slice(0, at)), unform(decoded.slice(at + 1))];
}
