import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, tempDir, testDb, type TestEnv } from '../../../test/harness.ts';

/**
 * The web app's sign-in pages share `/auth` with the FDI routes (same origin under `npm start`): a
 * browser navigation there must get the single-page app, an API call the FDI answer.
 */
describe(`/auth pages next to the FDI routes on ${testDb}`, () => {
  let env: TestEnv;
  beforeAll(async () => {
    const dist = tempDir('lumina-web-');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Lumina</title><div id="root"></div>');
    env = await startTestEnv({ workers: false, env: { WEB_DIST_DIR: dist } });
  });
  afterAll(() => env.close());

  it('serves the web app for page navigations under /auth', async () => {
    for (const url of [
      '/auth',
      '/auth/verify?preAuthSessionId=x&tenantId=public',
      '/auth/callback/google?code=1',
      '/auth/mfa/totp',
    ]) {
      const res = await env.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<div id="root">');
    }
  });

  it('keeps answering SDK calls in FDI format', async () => {
    const methods = await env.app.inject({
      method: 'GET',
      url: '/auth/loginmethods',
      headers: { accept: '*/*' },
    });
    expect(methods.json()).toMatchObject({ status: 'OK' });
    const unknown = await env.app.inject({
      method: 'GET',
      url: '/auth/nope/nothing',
      headers: { accept: '*/*' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Not found' });
  });
});
