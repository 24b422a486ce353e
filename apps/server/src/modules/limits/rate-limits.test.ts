import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { testDb, type TestEnv, useTestEnv } from '../../../test/harness.ts';
import { balanceOf, signedInClient, type Client } from '../../../test/support/api.ts';
import { images } from '../../db/schema/index.ts';
import { multipartForm, photo } from '../uploads/uploads.test-helpers.ts';

const PROMPT = { text: 'a lighthouse at dusk', model: 'local-aurora' };
let ipCounter = 0;
/** A client address of its own for each test, believed because the env trusts one proxy hop. */
const freshIp = () => `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

function send(
  env: TestEnv,
  method: 'GET' | 'POST',
  url: string,
  options: { client?: Client; ip: string; payload?: unknown },
): Promise<LightMyRequestResponse> {
  return env.app.inject({
    method,
    url,
    headers: {
      'x-forwarded-for': options.ip,
      ...(options.client ? { authorization: `Bearer ${options.client.accessToken}` } : {}),
    },
    ...(options.payload === undefined ? {} : { payload: options.payload as Record<string, unknown> }),
  });
}

/** The 429 every limit answers: Retry-After within the window, and the usual error body. */
function expectLimited(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.json()).toEqual({
    detail: expect.stringMatching(/Too many requests\. Please wait .+ and try again\./),
    code: 'RATE_LIMITED',
    requestId: res.headers['x-request-id'],
  });
}

describe(`product API rate limits on ${testDb}`, () => {
  const env = useTestEnv({
    workers: false,
    env: {
      TRUST_PROXY: '1',
      RATE_LIMIT_WRITE_PER_MINUTE: '3',
      RATE_LIMIT_IP_WRITE_PER_MINUTE: '5',
      RATE_LIMIT_PREVIEW_PER_MINUTE: '2',
    },
  });

  it('refuses a person’s writes over the per-minute limit with 429 and Retry-After, charging nothing', async () => {
    const alice = await signedInClient(env, 'alice');
    const ip = freshIp();
    const start = await balanceOf(alice);
    const accepted = [];
    for (let i = 0; i < 3; i++) {
      const res = await send(env, 'POST', '/api/prompt', { client: alice, ip, payload: PROMPT });
      expect(res.statusCode, res.body).toBe(202);
      accepted.push(res.json());
    }
    const refused = await send(env, 'POST', '/api/prompt', { client: alice, ip, payload: PROMPT });
    expectLimited(refused);

    // Nothing changed: three jobs, three charges.
    const jobs = (await send(env, 'GET', '/api/progress', { client: alice, ip })).json().jobs;
    expect(jobs).toHaveLength(3);
    expect(await balanceOf(alice)).toBe(start - accepted.reduce((sum, a) => sum + a.cost, 0));
    // Reads are not writes: still answered.
    expect((await send(env, 'GET', '/api/progress', { client: alice, ip })).statusCode).toBe(200);
  });

  it('counts each person separately', async () => {
    const ip = freshIp();
    const [bob, carol] = [await signedInClient(env, 'bob'), await signedInClient(env, 'carol')];
    for (let i = 0; i < 3; i++) {
      expect(
        (await send(env, 'POST', '/api/prompt', { client: bob, ip: freshIp(), payload: PROMPT })).statusCode,
      ).toBe(202);
    }
    expectLimited(await send(env, 'POST', '/api/prompt', { client: bob, ip: freshIp(), payload: PROMPT }));
    expect((await send(env, 'POST', '/api/prompt', { client: carol, ip, payload: PROMPT })).statusCode).toBe(
      202,
    );
  });

  it('limits one address across people and before sign-in is checked', async () => {
    const ip = freshIp();
    const [dan, erin] = [await signedInClient(env, 'dan'), await signedInClient(env, 'erin')];
    for (let i = 0; i < 3; i++) {
      expect((await send(env, 'POST', '/api/prompt', { client: dan, ip, payload: PROMPT })).statusCode).toBe(
        202,
      );
    }
    // Anonymous writes count against the address too (401, but counted).
    expect((await send(env, 'POST', '/api/prompt', { ip, payload: PROMPT })).statusCode).toBe(401);
    expect((await send(env, 'POST', '/api/prompt', { client: erin, ip, payload: PROMPT })).statusCode).toBe(
      202,
    );
    // Erin has made one write, but the address has made five.
    expectLimited(await send(env, 'POST', '/api/prompt', { client: erin, ip, payload: PROMPT }));
    expectLimited(await send(env, 'POST', '/api/prompt', { ip, payload: PROMPT }));
    // From another address Erin goes on.
    expect(
      (await send(env, 'POST', '/api/prompt', { client: erin, ip: freshIp(), payload: PROMPT })).statusCode,
    ).toBe(202);
  });

  it('limits multipart routes, and convert-preview more tightly than other writes', async () => {
    const [frank, gina] = [await signedInClient(env, 'frank'), await signedInClient(env, 'gina')];
    const form = multipartForm([
      { name: 'file', filename: 'photo.jpg', contentType: 'image/jpeg', data: await photo('jpeg') },
    ]);
    const post = (client: Client, url: string) =>
      env.app.inject({
        method: 'POST',
        url,
        headers: {
          ...form.headers,
          authorization: `Bearer ${client.accessToken}`,
          'x-forwarded-for': freshIp(),
        },
        payload: form.payload,
      });
    // Two previews a minute, though three writes are allowed.
    expect((await post(frank, '/api/images/convert-preview')).statusCode).toBe(200);
    expect((await post(frank, '/api/images/convert-preview')).statusCode).toBe(200);
    expectLimited(await post(frank, '/api/images/convert-preview'));
    // Uploads: the write limit.
    for (let i = 0; i < 3; i++) expect((await post(gina, '/api/images/upload')).statusCode).toBe(201);
    expectLimited(await post(gina, '/api/images/upload'));
    // The refused upload stored nothing.
    const rows = await env.container.database.db.select().from(images).where(eq(images.userId, gina.userId));
    expect(rows).toHaveLength(3);
  });

  it('does not limit reads or vendor webhooks', async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i++) {
      expect((await send(env, 'GET', '/api/models', { ip })).statusCode).toBe(200);
    }
    for (let i = 0; i < 6; i++) {
      // Refused for its missing signature, not for the rate.
      expect((await send(env, 'POST', '/api/webhooks/replicate', { ip, payload: {} })).statusCode).not.toBe(
        429,
      );
    }
  });
});
