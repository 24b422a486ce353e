import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contracts, defineContract, healthContract } from '@lumina/contracts';
import { setupLocalServer } from '@/testing/api-server';
import { answer } from '@/testing/fake-api';
import { json, startLocalServer } from '@/testing/local-server';
import commonEn from '../../public/locales/en/common.json';
import { ApiError, createApiClient } from './api-client';
import { initI18n } from './i18n';

const echoContract = defineContract({
  method: 'POST',
  path: '/api/things/{id}',
  summary: 'test only',
  tags: ['test'],
  params: z.object({ id: z.string() }),
  query: z.object({ page: z.number().optional(), tag: z.array(z.string()).optional() }),
  body: z.object({ name: z.string() }),
  response: z.object({ id: z.string(), name: z.string() }),
});

// Routes answering off-contract bodies stay raw (`server.route`): they test how the client copes.
const server = setupLocalServer();

beforeAll(async () => {
  server.answer(contracts.health, { status: 'ok' });
  server.route('GET', '/prefix/api/health', (_req, res) => json(res, 200, { status: 'ok' }));
  server.on(echoContract, (req) =>
    answer(echoContract, { id: req.params.id!, name: (JSON.parse(req.body) as { name: string }).name }),
  );
  await initI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
});

describe('api client', () => {
  it('prefixes the configured base, with or without a trailing slash or path', async () => {
    await expect(createApiClient({ baseUrl: server.url }).call(healthContract)).resolves.toEqual({
      status: 'ok',
    });
    await expect(createApiClient({ baseUrl: `${server.url}/prefix/` }).call(healthContract)).resolves.toEqual(
      {
        status: 'ok',
      },
    );
    expect(server.requests.map((r) => r.url)).toEqual(['/api/health', '/prefix/api/health']);
  });

  it('sends method, path params, query and JSON body from the contract', async () => {
    const client = createApiClient({ baseUrl: server.url });
    const result = await client.call(echoContract, {
      params: { id: 'a b' },
      query: { page: 2, tag: ['x', 'y'] },
      body: { name: 'Nova' },
    });
    expect(result).toEqual({ id: 'a b', name: 'Nova' });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/things/a%20b?page=2&tag=x&tag=y');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ name: 'Nova' });
  });

  it('attaches the bearer token from the pluggable getter, and none without a token', async () => {
    let token: string | null = 'tok-123';
    const client = createApiClient({ baseUrl: server.url, getAccessToken: async () => token });
    await client.call(healthContract);
    token = null;
    await client.call(healthContract);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer tok-123');
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });

  it('normalises a {detail, code, requestId} error body into ApiError', async () => {
    server.route('GET', '/api/broke', (_req, res) =>
      json(res, 402, {
        detail: 'You need 4 more credits.',
        code: 'INSUFFICIENT_CREDITS',
        requestId: 'req-9',
      }),
    );
    const contract = { ...healthContract, path: '/api/broke' };
    const error = await createApiClient({ baseUrl: server.url })
      .call(contract)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 402,
      code: 'INSUFFICIENT_CREDITS',
      detail: 'You need 4 more credits.',
      requestId: 'req-9',
      message: 'You need 4 more credits.',
    });
  });

  it('falls back to a readable message from the translation file when the body has no detail', async () => {
    server.route('GET', '/api/plain', (_req, res) => res.writeHead(503).end('upstream down'));
    server.route('GET', '/api/nodetail', (_req, res) => json(res, 404, { error: 'nope' }));
    const client = createApiClient({ baseUrl: server.url });
    const plain = await client.call({ ...healthContract, path: '/api/plain' }).catch((e: unknown) => e);
    expect(plain).toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      detail: commonEn.errors.codes.SERVICE_UNAVAILABLE,
    });
    const noDetail = await client.call({ ...healthContract, path: '/api/nodetail' }).catch((e: unknown) => e);
    expect(noDetail).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      detail: commonEn.errors.codes.NOT_FOUND,
    });
  });

  it('rejects a success response that does not match the contract', async () => {
    server.route('GET', '/api/odd', (_req, res) => json(res, 200, { status: 'maybe' }));
    const error = await createApiClient({ baseUrl: server.url })
      .call({ ...healthContract, path: '/api/odd' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_RESPONSE', detail: commonEn.errors.codes.INVALID_RESPONSE });
  });

  it('reports an unreachable server as a network error', async () => {
    const closed = await startLocalServer();
    await closed.close();
    const error = await createApiClient({ baseUrl: closed.url })
      .call(healthContract)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
      detail: commonEn.errors.codes.NETWORK_ERROR,
    });
  });
});
