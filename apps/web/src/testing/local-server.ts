import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Contract } from '@lumina/contracts';
import { answer, type Reply, type ResponseOf } from './fake-api';

export const PUBLIC_DIR = resolve(import.meta.dirname, '../../public');

/** A raw route: for paths no contract describes (files, test-only contracts) and deliberately broken answers. */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

export interface FakeRequest {
  method: string;
  /** The path and query as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The contract path's `{name}` placeholders, decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
}

/**
 * A contract route: returns a `Reply` built with `answer(contract, …)` or `answerError(…)`, or writes
 * `res` itself for answers that are not JSON (an event stream, image bytes) and returns nothing.
 */
export type ContractHandler<C extends Contract> = (
  req: FakeRequest,
  res: ServerResponse,
) => Reply<ResponseOf<C>> | void | Promise<Reply<ResponseOf<C>> | void>;

export interface LocalServer {
  /** `http://127.0.0.1:<port>`, known once `listen` has resolved. */
  readonly url: string;
  /** Every request received, in order. */
  requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  /** Errors thrown by route handlers (an impossible fake answer, say), oldest first. */
  failures: unknown[];
  /** Answers the contract's method and path (any value of its placeholders) with `handler`. */
  on<C extends Contract>(contract: C, handler: ContractHandler<C>): void;
  /** Answers the contract's method and path with the same checked body every time. */
  answer<C extends Contract>(contract: C, body: ResponseOf<C>): void;
  route(method: string, path: string, handler: Handler): void;
  listen(): Promise<void>;
  close(): Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

interface ContractRoute {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: ContractHandler<Contract>;
}

function compile(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), names };
}

/**
 * A real HTTP server on 127.0.0.1 and a random port, created at once and listening after `listen()`;
 * serves `/locales/*` from the web app's public folder. Raw routes win over contract routes, and a
 * contract path without placeholders wins over one with them.
 */
export function createLocalServer(): LocalServer {
  const routes = new Map<string, Handler>();
  const contractRoutes = new Map<string, ContractRoute>();
  const requests: LocalServer['requests'] = [];
  const failures: unknown[] = [];
  let url = '';

  const findContractRoute = (method: string, path: string) => {
    const candidates = [...contractRoutes.values()]
      .filter((route) => route.method === method)
      .sort((a, b) => a.names.length - b.names.length);
    for (const route of candidates) {
      const match = route.pattern.exec(path);
      if (match) {
        const params = Object.fromEntries(
          route.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]),
        );
        return { route, params };
      }
    }
    return undefined;
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const [path = '/', search = ''] = (req.url ?? '/').split('?');
      requests.push({ method, url: req.url ?? '/', headers: req.headers, body });
      try {
        const handler = routes.get(`${method} ${path}`);
        if (handler) return await handler(req, res, body);
        const found = findContractRoute(method, path);
        if (found) {
          const request: FakeRequest = {
            method,
            url: req.url ?? '/',
            headers: req.headers,
            body,
            params: found.params,
            query: new URLSearchParams(search),
          };
          const reply = await found.route.handler(request, res);
          if (reply) json(res, reply.status, reply.body);
          return;
        }
        if (method === 'GET' && /^\/locales\/[a-z]{2}\/[a-z]+\.json$/.test(path)) {
          const file = await readFile(`${PUBLIC_DIR}${path}`, 'utf8').catch(() => null);
          if (file !== null) return res.writeHead(200, { 'content-type': 'application/json' }).end(file);
        }
        res.writeHead(404).end();
      } catch (error) {
        failures.push(error);
        // The test sees the failure in its own output as well as through `failures`.
        console.error(`Fake route ${method} ${path} failed:`, error);
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      }
    });
  });

  const on = <C extends Contract>(contract: C, handler: ContractHandler<C>) => {
    const { pattern, names } = compile(contract.path);
    contractRoutes.set(`${contract.method} ${contract.path}`, {
      method: contract.method,
      pattern,
      names,
      handler: handler as ContractHandler<Contract>,
    });
  };

  return {
    get url() {
      return url;
    },
    requests,
    failures,
    on,
    answer: (contract, body) => {
      const reply = answer(contract, body);
      on(contract, () => reply);
    },
    route: (method, path, handler) => routes.set(`${method} ${path}`, handler),
    listen: async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** A local server already listening. */
export async function startLocalServer(): Promise<LocalServer> {
  const server = createLocalServer();
  await server.listen();
  return server;
}
