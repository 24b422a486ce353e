import { samePixels } from '../../../test/support/images.ts';
import type { JobView } from '@lumina/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';
import { signedInClient, waitForJob, type Client } from '../../../test/support/api.ts';
import { images } from '../../db/schema/index.ts';

/** Live progress over a real socket (Server-Sent Events), and seeds end to end on the local engine. */

const LOCAL_MODEL = 'local-aurora';

interface SseEvent {
  event: string;
  data: string;
}

/** Opens `/api/progress/stream` with a bearer token and collects its events as they arrive. */
async function openStream(baseUrl: string, client: Client) {
  const controller = new AbortController();
  const res = await fetch(`${baseUrl}/api/progress/stream`, {
    headers: { authorization: `Bearer ${client.accessToken}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  let ended = false;
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const done = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += value;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
          if (event && data !== undefined) events.push({ event, data });
          for (const wake of waiters.splice(0)) wake();
        }
      }
    } catch {
      // aborted by the test
    } finally {
      ended = true;
      for (const wake of waiters.splice(0)) wake();
    }
  })();
  const jobsIn = (e: SseEvent) => (JSON.parse(e.data) as { jobs: JobView[] }).jobs;
  return {
    events,
    jobsIn,
    get ended() {
      return ended;
    },
    /** Resolves with the first event (from `from` on) that satisfies `match`. */
    async waitFor(match: (jobs: JobView[]) => boolean, from = 0, timeoutMs = 30_000): Promise<number> {
      const deadline = Date.now() + timeoutMs;
      for (let i = from; ;) {
        for (; i < events.length; i++)
          if (events[i]!.event === 'progress' && match(jobsIn(events[i]!))) return i;
        if (ended) throw new Error('stream ended');
        if (Date.now() > deadline) throw new Error('timed out waiting for a stream event');
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    close: async () => {
      controller.abort();
      await done;
    },
    done,
  };
}

describe(`live progress and seeds on ${testDb}`, { timeout: 90_000 }, () => {
  let env: TestEnv;
  let closed = false;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    env = await startTestEnv({ listen: true, env: { WELCOME_CREDITS: '100' } });
    alice = await signedInClient(env, 'alice');
    bob = await signedInClient(env, 'bob');
  });
  afterAll(async () => {
    if (!closed) await env?.close();
  });

  it('refuses a stream without a session', async () => {
    const res = await fetch(`${env.baseUrl}/api/progress/stream`);
    expect(res.status).toBe(401);
    const bad = await fetch(`${env.baseUrl}/api/progress/stream`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.status).toBe(401);
  });

  it('sends a snapshot first, then updates until the job succeeds; another person sees none of it', async () => {
    const aliceStream = await openStream(env.baseUrl!, alice);
    const bobStream = await openStream(env.baseUrl!, bob);
    try {
      const first = await aliceStream.waitFor(() => true);
      expect(first).toBe(0);
      expect(aliceStream.jobsIn(aliceStream.events[0]!)).toEqual([]);
      await bobStream.waitFor(() => true);

      const res = await alice.call('POST', '/api/prompt', { text: 'streamed harbour', model: LOCAL_MODEL });
      expect(res.statusCode).toBe(202);
      const jobId = res.json().job_id as string;
      const find = (jobs: JobView[]) => jobs.find((j) => j.id === jobId);
      const queuedOrRunning = await aliceStream.waitFor((jobs) => find(jobs) !== undefined);
      const done = await aliceStream.waitFor((jobs) => find(jobs)?.status === 'succeeded', queuedOrRunning);
      expect(done).toBeGreaterThan(0);
      const finished = find(aliceStream.jobsIn(aliceStream.events[done]!))!;
      expect(finished.image_ids).toHaveLength(1);
      expect(finished.percent).toBe(100);
      // Every event after the snapshot is a full list with this job in it.
      expect(aliceStream.events.slice(1).every((e) => find(aliceStream.jobsIn(e)))).toBe(true);

      // Bob's stream never carried Alice's job.
      await new Promise((r) => setTimeout(r, 300));
      expect(bobStream.events.length).toBeGreaterThan(0);
      for (const e of bobStream.events) expect(e.data).not.toContain(jobId);
    } finally {
      await aliceStream.close();
      await bobStream.close();
    }
  });

  it('stores seeds 0 and 4294967295 exactly, end to end', async () => {
    for (const seed of [0, 4294967295]) {
      const res = await alice.call('POST', '/api/prompt', {
        text: 'seed edge',
        model: LOCAL_MODEL,
        seed,
        aspect_ratio: '1:1',
      });
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitForJob(alice, res.json().job_id);
      const item = (await alice.call('GET', '/api/images'))
        .json()
        .items.find((i: { id: string }) => i.id === job.image_ids[0]);
      expect(item.seed).toBe(seed);
      const [row] = await env.container.database.db
        .select()
        .from(images)
        .where(eq(images.id, job.image_ids[0]!));
      expect(row!.seed).toBe(seed);
    }
  });

  it('same seed, prompt, model and size on the local engine → pixel-identical stored originals (each carries its own signed credentials)', async () => {
    const originals: Buffer[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await alice.call('POST', '/api/prompt', {
        text: 'a copper teapot on a windowsill',
        model: LOCAL_MODEL,
        seed: 424242,
        aspect_ratio: '1:1',
      });
      const job = await waitForJob(alice, res.json().job_id);
      const item = (await alice.call('GET', '/api/images'))
        .json()
        .items.find((x: { id: string }) => x.id === job.image_ids[0]);
      originals.push((await env.app.inject({ method: 'GET', url: item.url })).rawPayload);
    }
    expect(originals[0]!.length).toBeGreaterThan(1000);
    expect(await samePixels(originals[0]!, originals[1]!)).toBe(true);
  });

  it('ends open streams when the server shuts down, and closing does not hang', async () => {
    const stream = await openStream(env.baseUrl!, alice);
    await stream.waitFor(() => true);
    const started = Date.now();
    await env.app.close();
    const took = Date.now() - started;
    await stream.done;
    expect(stream.ended).toBe(true);
    // Bounded by idle keep-alive sockets of earlier plain requests at worst, never by open streams.
    expect(took).toBeLessThan(5000);
    closed = true;
    await env.close();
  });
});
