import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';

export const PUBLIC_DIR = resolve(import.meta.dirname, '../../public');

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

export interface LocalServer {
  url: string;
  /** Every request received, in order. */
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  route(method: string, path: string, handler: Handler): void;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A real HTTP server on 127.0.0.1 and a random port; serves `/locales/*` from the web app's public folder. */
export async function startLocalServer(): Promise<LocalServer> {
  const routes = new Map<string, Handler>();
  const requests: LocalServer['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
      try {
        const handler = routes.get(`${req.method} ${path}`);
        if (handler) return await handler(req, res, body);
        if (req.method === 'GET' && /^\/locales\/[a-z]{2}\/[a-z]+\.json$/.test(path)) {
          const file = await readFile(`${PUBLIC_DIR}${path}`, 'utf8').catch(() => null);
          if (file !== null) return res.writeHead(200, { 'content-type': 'application/json' }).end(file);
        }
        res.writeHead(404).end();
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
