import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { TEST_C2PA_SIGNING } from '../../../test/support/c2pa-signing.ts';

const IP_LIMIT = '2';

/** An anonymous write (401, but counted by the per-address limit) claiming to come through `forwardedFor`. */
const write = (env: TestEnv, forwardedFor?: string) =>
  env.app.inject({
    method: 'POST',
    url: '/api/prompt',
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    payload: { text: 'x', model: 'local-aurora' },
  });

/** Status codes of writes in order: 429 shows which claimed addresses shared one counter. */
async function statuses(env: TestEnv, forwardedFor: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const header of forwardedFor) out.push((await write(env, header)).statusCode);
  return out;
}

describe(`TRUST_PROXY on ${testDb}`, () => {
  const envs: TestEnv[] = [];
  const start = async (trustProxy?: string) => {
    const env = await startTestEnv({
      workers: false,
      env: { RATE_LIMIT_IP_WRITE_PER_MINUTE: IP_LIMIT, ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) },
    });
    envs.push(env);
    return env;
  };
  let off: TestEnv;
  let hops: TestEnv;
  let list: TestEnv;

  // One hook each: under load, starting an app can take most of a hook's time limit.
  beforeAll(async () => {
    off = await start();
  });
  beforeAll(async () => {
    hops = await start('1');
  });
  beforeAll(async () => {
    list = await start('127.0.0.1,10.9.9.0/24');
  });
  afterAll(async () => {
    for (const env of envs) await env.close();
  });

  it('is off by default: a spoofed X-Forwarded-For does not change the address a limit sees', async () => {
    expect(off.config.trustProxy).toBe(false);
    expect(await statuses(off, ['10.0.0.1', '10.0.0.2', '10.0.0.3'])).toEqual([401, 401, 429]);
  });

  it('with a hop count, believes that many proxies and no further', async () => {
    expect(await statuses(hops, ['10.0.0.1', '10.0.0.2', '10.0.0.3'])).toEqual([401, 401, 401]);
    // The client's own (leftmost) entries are not believed: the proxy's entry (rightmost) is the client.
    expect(await statuses(hops, ['1.1.1.1, 10.0.1.1', '2.2.2.2, 10.0.1.1', '3.3.3.3, 10.0.1.1'])).toEqual([
      401, 401, 429,
    ]);
  });

  it('counts an IPv6 /64 as one address, so a client cannot rotate through its own range', async () => {
    expect(await statuses(hops, ['2001:db8:0:1::1', '2001:db8:0:1::2', '2001:db8:0:1:ffff::3'])).toEqual([
      401, 401, 429,
    ]);
    expect((await write(hops, '2001:db8:0:2::1')).statusCode).toBe(401);
  });

  it('with a list, believes only the listed proxies', async () => {
    // 127.0.0.1 and 10.9.9.9 are trusted proxies, so the address before them is the client.
    expect(await statuses(list, ['1.1.1.1, 10.9.9.9', '2.2.2.2, 10.9.9.9', '3.3.3.3, 10.9.9.9'])).toEqual([
      401, 401, 401,
    ]);
    // 10.8.0.1 is not a trusted proxy: it is the client, whatever it claims before it.
    expect(await statuses(list, ['4.4.4.4, 10.8.0.1', '5.5.5.5, 10.8.0.1', '6.6.6.6, 10.8.0.1'])).toEqual([
      401, 401, 429,
    ]);
  });
});

describe('TRUST_PROXY setting', () => {
  const trust = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('reads off, hop counts and proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(trust('off')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback')).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('stops start-up naming the setting for anything else, including "true"', () => {
    for (const bad of ['true', 'proxy.example.com', '10.0.0.1/33', '10.0.0']) {
      expect(() => trust(bad)).toThrow(ConfigError);
      expect(() => trust(bad)).toThrow(/TRUST_PROXY: must be off, a hop count/);
    }
  });
});

describe('HOST default', () => {
  it('is 127.0.0.1 outside production and 0.0.0.0 in production, unless set', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    const production = {
      NODE_ENV: 'production',
      FILE_URL_SECRET: 'x'.repeat(32),
      AUTH_KEYS_ENCRYPTION_KEY: 'k'.repeat(43),
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      ...TEST_C2PA_SIGNING,
    };
    expect(loadConfig(production).host).toBe('0.0.0.0');
    expect(loadConfig({ ...production, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });
});
