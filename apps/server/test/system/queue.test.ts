import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.ts';
import {
  durableDatabase,
  freshDatabaseUrl,
  startTestEnv,
  testDb,
  type TestEnv,
  useTestEnv,
} from '../harness.ts';

async function waitForState(env: TestEnv, id: string, state: string, timeoutMs = 20_000) {
  const started = Date.now();
  for (;;) {
    const job = await env.container.queue.getJob('system.echo', id);
    if (job?.state === state) return job;
    if (Date.now() - started > timeoutMs) throw new Error(`job ${id} is ${job?.state}, not ${state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe(`job queue on ${testDb}`, () => {
  const env = useTestEnv();

  it('runs an enqueued job to completion with its output', async () => {
    const id = await env.container.queue.send('system.echo', { message: 'hello' });
    const job = await waitForState(env, id, 'completed');
    expect(job.output).toEqual({ echoed: 'hello' });
  });

  it('finds a job nobody announced (a retry whose delay is over, a dead letter) at the next poll', async () => {
    // Sent past JobQueue.send, so no worker is woken for it: only the process's poll can find it, and
    // it must do so within about one QUEUE_POLL_INTERVAL_SECONDS (0.5 s here), not the workers' own
    // one-minute backstop.
    const queue = env.container.queue;
    await new Promise((r) => setTimeout(r, 1000)); // every worker has fetched, found nothing, and sleeps
    const sent = Date.now();
    const id = await queue.boss.send(
      'system.echo',
      { message: 'unannounced' },
      queue.optionsOf('system.echo'),
    );
    const job = await waitForState(env, id!, 'completed', 20_000);
    expect(job.output).toEqual({ echoed: 'unannounced' });
    expect(Date.now() - sent).toBeLessThan(10_000);
  });

  it('refuses a payload that does not match the job schema', async () => {
    await expect(env.container.queue.send('system.echo', { message: 42 } as never)).rejects.toThrow();
  });

  it('enqueues inside a transaction: a rollback leaves no job and no row', async () => {
    const { db } = env.container.database;
    let jobId = '';
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(users).values({ email: 'rolled-back@example.test' });
        jobId = await env.container.queue.send('system.echo', { message: 'never' }, { tx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(jobId).not.toBe('');
    expect(await env.container.queue.getJob('system.echo', jobId)).toBeNull();

    const committed = await db.transaction((tx) =>
      env.container.queue.send('system.echo', { message: 'kept' }, { tx }),
    );
    expect((await waitForState(env, committed, 'completed')).output).toEqual({ echoed: 'kept' });
  });
});

describe(`a queued job survives a restart on ${testDb}`, () => {
  it('enqueue, stop, start again: it completes', async () => {
    // Embedded mode keeps PGlite in files under the data folder so the second start sees the job.
    const database = await durableDatabase();
    const { dataDir, where } = database;

    const first = await startTestEnv({ dataDir, ...where, workers: false, keep: true });
    const id = await first.container.queue.send('system.echo', { message: 'after restart' });
    expect((await first.container.queue.getJob('system.echo', id))?.state).toBe('created');
    await first.close();

    const second = await startTestEnv({ dataDir, ...where, workers: true, keep: true });
    try {
      const job = await waitForState(second, id, 'completed');
      expect(job.output).toEqual({ echoed: 'after restart' });
    } finally {
      await second.close();
      await database.drop();
    }
  });
});

describe.runIf(testDb === 'postgres')('a job sent by another process', () => {
  it('wakes an idle worker at once instead of at its next poll', async () => {
    const database = await freshDatabaseUrl();
    // The workers poll once a minute: only the wake-up can start the job before then.
    const worker = await startTestEnv({
      databaseUrl: database.url,
      keep: true,
      env: { QUEUE_POLL_INTERVAL_SECONDS: '60' },
    });
    const api = await startTestEnv({ databaseUrl: database.url, keep: true, workers: false });
    try {
      // Both workers have made their first fetch and are asleep.
      await new Promise((r) => setTimeout(r, 1000));
      const id = await api.container.queue.send('system.echo', { message: 'wake up' });
      const job = await waitForState(worker, id, 'completed', 30_000);
      expect(job.output).toEqual({ echoed: 'wake up' });
    } finally {
      await api.close();
      await worker.close();
      await database.drop();
    }
  }, 60_000);
});
