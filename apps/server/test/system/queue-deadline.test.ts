import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../harness.ts';
import { eventually } from '../support/api.ts';

/**
 * A try's deadline survives a retry. The heartbeat keeps a running job's pg-boss `expire_in` a few beats
 * ahead (so a dead worker's job is found soon), and pg-boss copies `expire_in` into the retry it makes
 * of a failed or abandoned try, and times the next try by it: without giving it back, a training
 * retried after its first try failed or its worker died would get seconds instead of its 3 hours.
 */
describe(`a retried queue job on ${testDb}`, { timeout: 40_000 }, () => {
  const env = useTestEnv({ workers: false, env: { JOB_HEARTBEAT_SECONDS: '1' } });
  /** The deadline each try of a message got, by message. */
  const deadlines = new Map<string, number[]>();
  const triesOf = (message: string) => deadlines.get(message) ?? [];

  beforeAll(async () => {
    await env.container.queue.work('system.echo', async (job) => {
      const { message } = job.data as { message: string };
      deadlines.set(message, [
        ...triesOf(message),
        Number((job as { expireInSeconds?: unknown }).expireInSeconds),
      ]);
      if (message === 'fails once' && triesOf(message).length === 1) {
        // A couple of beats, then a failure that pg-boss retries.
        await new Promise((r) => setTimeout(r, 2500));
        throw new Error('the vendor could not be reached');
      }
      return { ok: true };
    });
  });

  it('gets the same deadline as its first try, however the beats moved it meanwhile', async () => {
    await env.container.queue.send('system.echo', { message: 'fails once' }, { expireInSeconds: 600 });
    await eventually(async () => (triesOf('fails once').length >= 2 ? true : undefined), 15_000, 'the retry');
    expect(triesOf('fails once')).toEqual([600, 600]);
  });

  it('gets its full deadline back when it is retried because its worker died', async () => {
    const { queue, database } = env.container;
    // Sent and taken by a worker that then died, in one transaction so no live worker takes it first:
    // what the dead worker's last beat left is a short expiry, long passed.
    await database.db.transaction(async (tx) => {
      const id = await queue.send('system.echo', { message: 'abandoned' }, { tx, expireInSeconds: 700 });
      await tx.execute(
        sql`UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 minute', expire_in = interval '30 seconds'
            WHERE name = 'system.echo' AND id = ${id}`,
      );
    });
    await eventually(async () => (triesOf('abandoned').length >= 1 ? true : undefined), 20_000, 'the retry');
    expect(triesOf('abandoned')).toEqual([700]);
  });
});
