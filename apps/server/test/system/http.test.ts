import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defineContract } from '@lumina/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../src/errors.ts';
import { route } from '../../src/http/route.ts';
import { startTestEnv, tempDir, testDb, type TestEnv } from '../harness.ts';

describe(`HTTP surface on ${testDb}`, () => {
  let env: TestEnv;
  const dataDir = tempDir();
  const dist = path.join(dataDir, 'web');

  beforeAll(async () => {
    // A stand-in web build so the single-page-app fallback and cache headers can be checked.
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Lumina</title><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    env = await startTestEnv({ dataDir, env: { WEB_DIST_DIR: dist }, workers: false });
  });
  afterAll(() => env.close());

  it('answers liveness', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers readiness with each dependency checked', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { database: true, queue: true, storage: true },
      // Each configured vendor's breaker (here the local engine only), as information.
      vendors: [
        {
          name: 'local',
          label: 'The local engine',
          state: 'closed',
          consecutive_failures: 0,
          retry_at: null,
        },
      ],
    });
  });

  it('answers unknown API routes with a JSON 404 that names the route', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/nothing-here',
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      detail: 'No such endpoint: POST /api/nothing-here',
      code: 'NOT_FOUND',
    });
    expect(res.json().requestId).toBe(res.headers['x-request-id']);
  });

  it('serves the web app for client routes, with long-cache hashed assets', async () => {
    const page = await env.app.inject({
      method: 'GET',
      url: '/gallery?tab=saved',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root"></div>');
    expect(page.headers['cache-control']).toBe('no-cache');

    const asset = await env.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const icon = await env.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');

    const missingAsset = await env.app.inject({
      method: 'GET',
      url: '/assets/gone.js',
      headers: { accept: '*/*' },
    });
    expect(missingAsset.statusCode).toBe(404);
  });

  it('publishes the OpenAPI document generated from the contracts, and a browsable UI', async () => {
    const doc = await env.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/health', '/api/ready']));
    expect(spec.paths['/api/ready'].get.responses['503']).toBeDefined();
    expect(spec.components.schemas.ErrorBody).toBeDefined();

    const ui = await env.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});

describe(`request ids on ${testDb}`, () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  let env: TestEnv;

  beforeAll(async () => {
    env = await startTestEnv({ workers: false, env: { TRUST_PROXY: '10.0.0.0/8' } });
  });
  afterAll(() => env.close());

  /** An error answer (unknown route), whose body carries the request id, sent from `remoteAddress`. */
  async function requestIdOf(remoteAddress: string, given: string) {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/nothing-here',
      remoteAddress,
      headers: { 'x-request-id': given },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toBe(res.json().requestId);
    return res.json().requestId as string;
  }

  it('keeps a well-formed request id given by a trusted proxy', async () => {
    expect(await requestIdOf('10.1.2.3', 'edge-42')).toBe('edge-42');
    expect(await requestIdOf('10.1.2.3', 'trace:4bf92f35.77e1-01')).toBe('trace:4bf92f35.77e1-01');
  });

  it('makes its own for a client that is not a trusted proxy', async () => {
    for (const address of ['127.0.0.1', '192.168.1.9', '2001:db8::1']) {
      expect(await requestIdOf(address, 'edge-42')).toMatch(UUID);
    }
  });

  it('makes its own when even a trusted proxy gives a malformed one', async () => {
    for (const malformed of [
      'x'.repeat(1000),
      'x'.repeat(65),
      'line\nbreak',
      'ünïcödé',
      'a b',
      '"quoted"',
      'Root=1-6789',
      '',
    ]) {
      expect(await requestIdOf('10.1.2.3', malformed), JSON.stringify(malformed)).toMatch(UUID);
    }
  });
});

describe('error handling', () => {
  let env: TestEnv;

  beforeAll(async () => {
    // Test-only routes, registered the way product routes are, to exercise the error paths.
    const echo = defineContract({
      method: 'POST',
      path: '/api/test/echo/{id}',
      summary: 'test',
      tags: ['test'],
      params: z.object({ id: z.coerce.number().int().positive() }),
      body: z.object({ text: z.string().trim().min(1).max(10), count: z.int().min(1) }),
      response: z.object({ id: z.number(), text: z.string() }),
    });
    const plain = (path: string, response: z.ZodType = z.object({})) =>
      defineContract({ method: 'GET', path, summary: 'test', tags: ['test'], response });
    env = await startTestEnv({
      workers: false,
      beforeReady(app) {
        route(app, echo, async (req) => ({ id: req.params.id, text: req.body.text }));
        route(app, plain('/api/test/fail'), async () => {
          throw new Error('connection to 10.0.0.5 refused; password=hunter2');
        });
        route(app, plain('/api/test/refuse'), async () => {
          throw new AppError(
            'INSUFFICIENT_CREDITS',
            'Not enough credits: this costs 5 credits and your balance is 2.',
          );
        });
        route(app, plain('/api/test/wrong-shape', z.object({ n: z.number() })), async () => ({
          n: 'not a number',
        }));
      },
    });
  });
  afterAll(() => env.close());

  it('passes valid input through', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/test/echo/7',
      payload: { text: '  hi ', count: 1 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 7, text: 'hi' });
  });

  it('turns validation errors into a 400 whose detail names the field', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/test/echo/7',
      payload: { text: '', count: 0 },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.detail).toMatch(/^Invalid body: /);
    expect(body.detail).toContain('text');
    expect(body.detail).toContain('count');
  });

  it('rejects a bad path parameter and malformed JSON with a 400', async () => {
    const badParam = await env.app.inject({
      method: 'POST',
      url: '/api/test/echo/abc',
      payload: { text: 'x', count: 1 },
    });
    expect(badParam.statusCode).toBe(400);
    expect(badParam.json().detail).toMatch(/^Invalid params: id/);

    const badJson = await env.app.inject({
      method: 'POST',
      url: '/api/test/echo/1',
      headers: { 'content-type': 'application/json' },
      payload: '{"text": ',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({
      detail: 'The request body is not valid JSON.',
      code: 'VALIDATION_FAILED',
    });
  });

  it('maps service errors to their status with the person-readable message', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/test/refuse' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      detail: 'Not enough credits: this costs 5 credits and your balance is 2.',
    });
  });

  it('never leaks internals or stack traces on unexpected errors', async () => {
    for (const url of ['/api/test/fail', '/api/test/wrong-shape']) {
      const res = await env.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['code', 'detail', 'requestId']);
      expect(body.code).toBe('INTERNAL');
      expect(res.body).not.toMatch(/hunter2|10\.0\.0\.5|at .*\.ts|stack/);
    }
  });
});
