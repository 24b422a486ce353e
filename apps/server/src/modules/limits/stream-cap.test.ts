import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { eventually, signedInClient, type Client } from '../../../test/support/api.ts';

interface OpenStream {
  status: number;
  headers: Headers;
  /** The JSON error body when refused. */
  body?: unknown;
  close(): void;
}

/** Opens GET /api/progress/stream over real HTTP and, when accepted, waits for the first snapshot. */
async function openStream(env: TestEnv, client: Client): Promise<OpenStream> {
  const controller = new AbortController();
  const res = await fetch(`${env.baseUrl}/api/progress/stream`, {
    headers: { authorization: `Bearer ${client.accessToken}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  if (res.status !== 200)
    return { status: res.status, headers: res.headers, body: await res.json(), close: () => undefined };
  const reader = res.body!.getReader();
  let text = '';
  while (!text.includes('event: progress')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  return {
    status: res.status,
    headers: res.headers,
    close: () => {
      controller.abort();
      reader.cancel().catch(() => undefined);
    },
  };
}

describe(`progress stream cap on ${testDb}`, () => {
  let env: TestEnv;
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    env = await startTestEnv({ workers: false, listen: true, env: { SSE_STREAMS_PER_USER: '2' } });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await env.close();
  });

  it('refuses a person’s stream over the cap with 429, and frees the slot when a stream closes', async () => {
    const [alice, bob] = [await signedInClient(env, 'alice'), await signedInClient(env, 'bob')];
    const first = await openStream(env, alice);
    const second = await openStream(env, alice);
    streams.push(first, second);
    expect([first.status, second.status]).toEqual([200, 200]);

    const third = await openStream(env, alice);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.body).toEqual({
      detail: 'You already have 2 live progress views open. Close another Lumina tab and try again.',
      code: 'RATE_LIMITED',
      requestId: third.headers.get('x-request-id'),
    });

    // Another person is not affected.
    const bobs = await openStream(env, bob);
    streams.push(bobs);
    expect(bobs.status).toBe(200);

    // Closing one of Alice's streams gives its slot back.
    first.close();
    const reopened = await eventually(
      async () => {
        const attempt = await openStream(env, alice);
        if (attempt.status === 200) return attempt;
        expect(attempt.status).toBe(429);
        return undefined;
      },
      10_000,
      'a freed stream slot',
    );
    streams.push(reopened);
    expect((await openStream(env, alice)).status).toBe(429);
  });

  it('answers HEAD at once with the stream’s headers and no body, and holds no slot', async () => {
    const carol = await signedInClient(env, 'carol');
    // More HEADs than the cap: each would hold a slot if it opened a stream.
    for (let i = 0; i < 3; i++) {
      const head = await fetch(`${env.baseUrl}/api/progress/stream`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${carol.accessToken}` },
        // Generous: the answer is immediate; before, it never came.
        signal: AbortSignal.timeout(10_000),
      });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(head.headers.get('cache-control')).toBe('no-cache, no-transform');
      expect(await head.text()).toBe('');
    }
    const stream = await openStream(env, carol);
    streams.push(stream);
    expect(stream.status).toBe(200);

    // Signed out, HEAD is refused as GET is.
    const anonymous = await fetch(`${env.baseUrl}/api/progress/stream`, {
      method: 'HEAD',
      signal: AbortSignal.timeout(10_000),
    });
    expect(anonymous.status).toBe(401);
  });
});
