import { randomInt } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, tempDir, testDb, type TestEnv } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createContainer } from '../../container.ts';
import { createLogger } from '../../logger.ts';
import { signedInClient } from '../../../test/support/api.ts';

const PROMPT = { text: 'a lighthouse at dusk', model: 'local-aurora' };
/** Every run gets addresses of its own, so counters left in a shared Redis by earlier runs do not matter. */
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const prompt = (env: TestEnv, ip: string, accessToken?: string) =>
  env.app.inject({
    method: 'POST',
    url: '/api/prompt',
    headers: { 'x-forwarded-for': ip, ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
    payload: PROMPT,
  });

describe.skipIf(testDb !== 'postgres')(
  'limits shared by two API processes on one PostgreSQL database',
  () => {
    let first: TestEnv;
    let second: TestEnv;

    const env = {
      TRUST_PROXY: '1',
      RATE_LIMIT_WRITE_PER_MINUTE: '3',
      SSE_STREAMS_PER_USER: '1',
      // One public address for both, as behind a load balancer: access tokens name it as their issuer.
      PUBLIC_URL: 'http://lumina.test',
    };
    // One hook each: under load, starting an app can take most of a hook's time limit.
    beforeAll(async () => {
      first = await startTestEnv({ workers: false, listen: true, env });
    });
    beforeAll(async () => {
      second = await startTestEnv({
        workers: false,
        listen: true,
        databaseUrl: first.config.database.url,
        dataDir: first.config.dataDir,
        env,
      });
    });
    afterAll(async () => {
      // The second runs on the first's database and folder; the first removes them.
      await second?.close();
      await first?.close();
    });

    it('counts a person’s writes across both', async () => {
      const alice = await signedInClient(first, 'alice');
      expect((await prompt(first, randomIp(), alice.accessToken)).statusCode).toBe(202);
      expect((await prompt(second, randomIp(), alice.accessToken)).statusCode).toBe(202);
      expect((await prompt(first, randomIp(), alice.accessToken)).statusCode).toBe(202);
      const refused = await prompt(second, randomIp(), alice.accessToken);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('RATE_LIMITED');
      expect((await prompt(first, randomIp(), alice.accessToken)).statusCode).toBe(429);
    });

    it('counts a person’s open progress streams across both', async () => {
      const bob = await signedInClient(first, 'bob');
      const open = (env: TestEnv, signal: AbortSignal) =>
        fetch(`${env.baseUrl}/api/progress/stream`, {
          headers: { authorization: `Bearer ${bob.accessToken}` },
          signal,
        });
      const controller = new AbortController();
      const stream = await open(first, controller.signal);
      expect(stream.status).toBe(200);
      const refused = await open(second, new AbortController().signal);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');
      controller.abort();
    });
  },
);

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)(`limits shared through Redis (REDIS_URL) on ${testDb}`, () => {
  let first: TestEnv;
  let second: TestEnv;

  const redisEnv = { TRUST_PROXY: '1', RATE_LIMIT_IP_WRITE_PER_MINUTE: '3', REDIS_URL: redisUrl ?? '' };
  // Two processes with databases of their own: only Redis connects them.
  beforeAll(async () => {
    first = await startTestEnv({ workers: false, env: redisEnv });
  });
  beforeAll(async () => {
    second = await startTestEnv({ workers: false, env: redisEnv });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('counts an address’s writes across both', async () => {
    const ip = randomIp();
    expect((await prompt(first, ip)).statusCode).toBe(401);
    expect((await prompt(second, ip)).statusCode).toBe(401);
    expect((await prompt(first, ip)).statusCode).toBe(401);
    const refused = await prompt(second, ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await prompt(first, ip)).statusCode).toBe(429);
    // Another address is unaffected.
    expect((await prompt(second, randomIp())).statusCode).toBe(401);
  });
});

describe('REDIS_URL that cannot be reached', () => {
  // Starting a container takes as long as a beforeAll hook may.
  it('stops start-up with a message naming it', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      // Nothing listens on port 1.
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    const container = await createContainer(
      Object.freeze({ ...config, database: { ...config.database, embeddedDir: 'memory://' } }),
      createLogger('silent'),
    );
    try {
      await expect(buildApp(container)).rejects.toThrow(/Cannot reach Redis at REDIS_URL/);
    } finally {
      await container.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
