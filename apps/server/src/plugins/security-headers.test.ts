import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../test/harness.ts';
import { signedInClient, type Client } from '../../test/support/api.ts';
import { HSTS, PERMISSIONS_POLICY } from './security-headers.ts';

describe(`security headers on ${testDb}`, () => {
  let plain: TestEnv;
  let proxied: TestEnv;
  let alice: Client;

  // One hook each: under load, starting an app can take most of a hook's time limit.
  beforeAll(async () => {
    plain = await startTestEnv({ workers: false, listen: true });
    alice = await signedInClient(plain, 'alice');
  });
  beforeAll(async () => {
    proxied = await startTestEnv({ workers: false, env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await plain?.close();
    await proxied?.close();
  });

  it('marks signed-in JSON no-store, and leaves public JSON alone', async () => {
    const mine = await alice.call('GET', '/api/credits/balance');
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['cache-control']).toBe('no-store');
    const refused = await plain.app.inject({
      method: 'GET',
      url: '/api/progress',
      headers: { authorization: 'Bearer nope' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const models = await plain.app.inject({ method: 'GET', url: '/api/models' });
    expect(models.headers['cache-control']).toBeUndefined();
  });

  it('sends Permissions-Policy, including on progress streams', async () => {
    const health = await plain.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    const controller = new AbortController();
    const stream = await fetch(`${plain.baseUrl}/api/progress/stream`, {
      headers: { authorization: `Bearer ${alice.accessToken}` },
      signal: controller.signal,
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY);
    controller.abort();
  });

  it('sends HSTS only over HTTPS, and believes X-Forwarded-Proto only from a trusted proxy', async () => {
    const overHttp = await fetch(`${plain.baseUrl}/api/health`);
    expect(overHttp.headers.get('strict-transport-security')).toBeNull();
    // Without TRUST_PROXY a client claiming HTTPS is not believed.
    const claimed = await plain.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    // Behind a trusted proxy (loopback here) that terminated TLS, it is sent.
    const viaProxy = await proxied.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(viaProxy.headers['strict-transport-security']).toBe(HSTS);
    const plainViaProxy = await proxied.app.inject({ method: 'GET', url: '/api/health' });
    expect(plainViaProxy.headers['strict-transport-security']).toBeUndefined();
  });
});
