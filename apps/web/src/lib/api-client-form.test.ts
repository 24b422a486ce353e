import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineContract } from '@lumina/contracts';
import { setupLocalServer } from '@/testing/api-server';
import { answer, answerError } from '@/testing/fake-api';
import { setupNodeFormData } from '@/testing/node-form-data';
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

const server = setupLocalServer();
beforeAll(async () => {
  await initI18n({ loadPath: `${server.url}/locales/{{lng}}/{{ns}}.json` });
});
setupNodeFormData();

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
    // Only the encoded path answers, so the test also checks the placeholder's encoding.
    server.on(uploadContract, (req) =>
      req.url === '/api/uploads/a%20b'
        ? answer(uploadContract, { stored: 'yes' })
        : answerError(404, 'NOT_FOUND', 'Not found'),
    );
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
    server.on(uploadContract, () =>
      answerError(413, 'PAYLOAD_TOO_LARGE', 'This file is over the 20 MB limit.'),
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
    server.on(previewContract, (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/jpeg' }).end(Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
    });
    const client = createApiClient({ baseUrl: server.url });
    const blob = await client.callFormForBlob(previewContract, picture());
    expect(blob.type).toBe('image/jpeg');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([0xff, 0xd8, 0xff, 0xd9]);

    server.on(previewContract, () =>
      answerError(400, 'VALIDATION_FAILED', 'This file is not an image we can read.'),
    );
    await expect(client.callFormForBlob(previewContract, picture())).rejects.toMatchObject({
      status: 400,
      detail: 'This file is not an image we can read.',
    });
  });

  it('reads a file answer of a GET through its contract with the bearer token (callForBlob)', async () => {
    const zipContract = defineContract({
      method: 'GET',
      path: '/api/zips/{id}',
      summary: 'test only',
      tags: ['test'],
      params: z.object({ id: z.string() }),
      response: z.any(),
    });
    server.on(zipContract, (req, res) => {
      if (req.headers.authorization !== 'Bearer t-1' || req.params.id !== 'z1')
        return answerError(404, 'NOT_FOUND', 'No such zip.');
      res.writeHead(200, { 'content-type': 'application/zip' }).end(Buffer.from('PK'));
    });
    const client = createApiClient({ baseUrl: server.url, getAccessToken: () => 't-1' });
    const blob = await client.callForBlob(zipContract, { params: { id: 'z1' } });
    expect(blob.type).toBe('application/zip');
    expect(await blob.text()).toBe('PK');
    await expect(client.callForBlob(zipContract, { params: { id: 'other' } })).rejects.toMatchObject({
      status: 404,
      detail: 'No such zip.',
    });
  });
});
