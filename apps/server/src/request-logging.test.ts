import { afterEach, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../test/harness.ts';
import { captureLog } from '../test/support/log-capture.ts';

describe(`request logging (LOG_REQUESTS) on ${testDb}`, () => {
  let env: TestEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  async function start(logRequests?: string) {
    const log = captureLog();
    env = await startTestEnv({
      workers: false,
      env: { LOG_LEVEL: 'info', ...(logRequests ? { LOG_REQUESTS: logRequests } : {}) },
      logTo: log.stream,
      beforeReady: (app) =>
        app.get('/api/test-only/boom', async () => {
          throw new Error('boom');
        }),
    });
    return { app: env.app, lines: log.lines };
  }

  it('logs each request with its id by default', async () => {
    const { app, lines } = await start();
    const res = await app.inject({ method: 'GET', url: '/api/models' });
    expect(res.statusCode).toBe(200);
    const id = res.headers['x-request-id'];
    expect(lines.find((l) => l.msg === 'request completed' && l.reqId === id)).toBeDefined();
  });

  it('with LOG_REQUESTS=false writes no line for a good request but still logs a failure with its request id', async () => {
    const { app, lines } = await start('false');
    const ok = await app.inject({ method: 'GET', url: '/api/models' });
    expect(ok.statusCode).toBe(200);
    expect(lines.filter((l) => l.reqId === ok.headers['x-request-id'])).toEqual([]);

    const failed = await app.inject({ method: 'GET', url: '/api/test-only/boom' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json().requestId).toBe(failed.headers['x-request-id']);
    const logged = lines.find((l) => l.reqId === failed.headers['x-request-id']);
    expect(logged).toMatchObject({ level: 50, msg: 'request failed' });
  });
});
