import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeServer } from '../../../test/fakes/http.ts';
import { useTestEnv, testDb } from '../../../test/harness.ts';
import { useFakeClock } from '../auth/auth.test-helpers.ts';

/**
 * The fal webhook route before a signature is checked: fal's signing keys are fetched only when fal is
 * configured, and a failed fetch is not repeated for every webhook that arrives meanwhile.
 */

/** fal's key-set URL, answering 503 to every fetch and counting them. */
let jwksFetches = 0;
let jwks: Awaited<ReturnType<typeof startFakeServer>>;
beforeAll(async () => {
  jwks = await startFakeServer(async (_req, res) => {
    jwksFetches++;
    sendJson(res, 503, { detail: 'unavailable' });
  });
});
afterAll(() => jwks.close());

/** The four headers fal signs with, well-formed (the signature verifies under no key). */
function falDelivery() {
  return {
    method: 'POST' as const,
    url: '/api/webhooks/fal',
    headers: {
      'content-type': 'application/json',
      'x-fal-webhook-request-id': 'req-1',
      'x-fal-webhook-user-id': 'user-1',
      'x-fal-webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'x-fal-webhook-signature': randomBytes(64).toString('hex'),
    },
    payload: JSON.stringify({ request_id: 'req-1', status: 'OK', payload: {} }),
  };
}

describe(`fal webhooks without FAL_KEY on ${testDb}`, () => {
  const env = useTestEnv(() => ({ workers: false, env: { FAL_WEBHOOK_JWKS_URL: `${jwks.url}/jwks.json` } }));

  it('refuses a well-formed delivery as not configured, fetching nothing', async () => {
    const before = jwksFetches;
    const res = await env.app.inject(falDelivery());
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND', detail: 'fal.ai webhooks are not configured.' });
    expect(jwksFetches - before).toBe(0);
  });
});

describe(`fal webhooks while fal's key set cannot be fetched, on ${testDb}`, () => {
  const env = useTestEnv(() => ({
    workers: false,
    env: { FAL_KEY: 'fal-test-key', FAL_WEBHOOK_JWKS_URL: `${jwks.url}/jwks.json` },
  }));
  const clock = useFakeClock(env);

  it('refuses each delivery, fetching the keys again only once the failure is 30 s old', async () => {
    const before = jwksFetches;
    const first = await env.app.inject(falDelivery());
    expect(first.statusCode).toBe(400);
    expect(first.json()).toMatchObject({ detail: 'The webhook signature is not valid.' });
    expect(jwksFetches - before).toBe(1);

    // More deliveries within the failure's 30 s: refused without a fetch each.
    clock.advance(29_000);
    for (let i = 0; i < 3; i++) expect((await env.app.inject(falDelivery())).statusCode).toBe(400);
    expect(jwksFetches - before).toBe(1);

    clock.advance(2_000);
    expect((await env.app.inject(falDelivery())).statusCode).toBe(400);
    expect(jwksFetches - before).toBe(2);
  });
});
