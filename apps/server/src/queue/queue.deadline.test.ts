import { describe, expect, it } from 'vitest';
import { testDb, useTestEnv } from '../../test/harness.ts';
import { eventually } from '../../test/support/api.ts';

/**
 * A try's deadline survives a retry. The heartbeat keeps a running job's pg-boss `expire_in` a few beats
 * ahead (so a dead worker's job is found soon), and pg-boss copies `expire_in` into the retry it makes
 * of a failed try, and times the next try by it: without restoring it, a training retried after its
 * first try failed would get seconds instead of its 3 hours.
 */
describe(`a retried queue job on ${testDb}`, { timeout: 30_000 }, () => {
  const env = useTestEnv({ workers: false, env: { JOB_HEARTBEAT_SECONDS: '1' } });

  it('gets the same deadline as its first try, however the beats moved it meanwhile', async () => {
    const deadlines: number[] = [];
    await env.container.queue.work('system.echo', async (job) => {
      deadlines.push(Number((job as { expireInSeconds?: unknown }).expireInSeconds));
      if (deadlines.length === 1) {
        // A couple of beats, then a failure that pg-boss retries.
        await new Promise((r) => setTimeout(r, 2500));
        throw new Error('the vendor could not be reached');
      }
      return { ok: true };
    });
    await env.container.queue.send('system.echo', { message: 'deadline' }, { expireInSeconds: 600 });
    await eventually(async () => (deadlines.length >= 2 ? true : undefined), 15_000, 'the retry');
    expect(deadlines).toEqual([600, 600]);
  });
});
