import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { File as NodeFile } from 'node:buffer';
import { z } from 'zod';
import { defineContract } from '@lumina/contracts';
import { json, startLocalServer, type LocalServer } from '@/testing/local-server';
import { ApiError, createApiClient } from './api-client';
import { initI18n } from './i18n';

const uploadContract = defineContract({
  method: 'POST',
  path: '/api/uploads/{id}',
  summary: 'test only',
  tags: ['test'],
  params: z.object({ id: z.string() }),
  response: z.object({ stored: z.string() }),
  status: 201,
});
const previewContract = defineContract({
  method: 'POST',
  path: '/api/preview',
  summary: 'test only',
  tags: ['test'],
  response: z.unknown(),
});

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
  await initI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
  // Node's fetch needs Node's FormData and File (jsdom's come out of it as a short, hanging body).
  const form = await new Response('', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  }).formData();
  vi.stubGlobal('FormData', form.constructor);
  vi.stubGlobal('File', NodeFile);
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function picture() {
  const form = new FormData();
  form.append('caption', 'a fox');
  form.append(
    'file',
    new File([new Uint8Array([137, 80, 78, 71])], 'fox.png', { type: 'image/png' }),
    'fox.png',
  );
  return form;
}

describe('multipart calls', () => {
  it('sends the form as multipart with the token and parses the answer with the contract', async () => {
    server.route('POST', '/api/uploads/a%20b', (_req, res) => json(res, 201, { stored: 'yes' }));
    const client = createApiClient({ baseUrl: server.url, getAccessToken: () => 'tok-1' });
    await expect(client.callForm(uploadContract, picture(), { params: { id: 'a b' } })).resolves.toEqual({
      stored: 'yes',
    });
    const [request] = server.requests;
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers.authorization).toBe('Bearer tok-1');
    expect(request?.body).toMatch(/name="caption"\r\n\r\na fox\r\n/);
    expect(request?.body).toContain('name="file"; filename="fox.png"');
  });

  it('normalises a refused upload into ApiError with the server detail', async () => {
    server.route('POST', '/api/uploads/big', (_req, res) =>
      json(res, 413, {
        detail: 'This file is over the 20 MB limit.',
        code: 'PAYLOAD_TOO_LARGE',
        requestId: 'r1',
      }),
    );
    const error = await createApiClient({ baseUrl: server.url })
      .callForm(uploadContract, picture(), { params: { id: 'big' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'This file is over the 20 MB limit.',
    });
  });

  it('returns the bytes of a binary answer, and an ApiError when there is none', async () => {
    server.route('POST', '/api/preview', (_req, res) =>
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.from([0xff, 0xd8, 0xff, 0xd9])),
    );
    const client = createApiClient({ baseUrl: server.url });
    const blob = await client.callFormForBlob(previewContract, picture());
    expect(blob.type).toBe('image/jpeg');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0xff, 0xd8, 0xff, 0xd9]);

    server.route('POST', '/api/preview', (_req, res) =>
      json(res, 400, { detail: 'This file is not an image we can read.', code: 'VALIDATION_FAILED' }),
    );
    await expect(client.callFormForBlob(previewContract, picture())).rejects.toMatchObject({
      status: 400,
      detail: 'This file is not an image we can read.',
    });
  });
});
