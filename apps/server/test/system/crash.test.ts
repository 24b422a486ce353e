import path from 'node:path';
import type { JobView } from '@lumina/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake, type FalFake } from '../fakes/fal-server.ts';
import { startServerProcess } from '../support/server-process.ts';
import { freePort, freshDatabaseUrl, startTestEnv, tempDir, testDb } from '../harness.ts';
import { eventually, ledgerOf, signedInClient } from '../support/api.ts';

/**
 * Crash safety with real processes: a worker SIGKILLed while a fal request runs leaves a pg-boss job
 * that the next process expires (GENERATION_TIMEOUT_SECONDS) and retries. The retry resumes the same
 * fal request (never a second, paid one) and succeeds, charged once; a job with no retries left goes to
 * the dead letter and is failed and refunded once.
 */

const FAL_MODEL = 'flux-schnell';

describe(`a worker killed mid-job on ${testDb}`, () => {
  let fal: FalFake;
  beforeAll(async () => {
    fal = await startFalFake();
  });
  afterAll(() => fal?.close());

  it('is resumed on the next start (same fal request, charged once), or failed and refunded once when out of retries', async () => {
    const dataDir = tempDir();
    const database = await freshDatabaseUrl();
    const where = database.url
      ? { databaseUrl: database.url }
      : { embeddedDir: path.join(dataDir, 'pglite') };
    const common = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      // Sessions are issued for this URL; the same on every process so tokens work across them.
      PUBLIC_URL: 'http://127.0.0.1',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
      WELCOME_CREDITS: '100',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      PROVIDER_POLL_INTERVAL_MS: '100',
      // A job running 3 s counts as stalled; stalls are looked for every second.
      GENERATION_TIMEOUT_SECONDS: '3',
      QUEUE_MAINTENANCE_INTERVAL_SECONDS: '1',
      QUEUE_POLL_INTERVAL_SECONDS: '0.5',
      GENERATION_RETRY_DELAY_SECONDS: '0',
      WORKER_CONCURRENCY: '2',
    };
    // fal accepts both requests and keeps them IN_PROGRESS until we say otherwise.
    fal.defaultScenario = { queuedPolls: 0, outcome: 'never' };
    const procs: Array<ReturnType<typeof startServerProcess>> = [];

    try {
      // 1. Two people each start a job through the API (no workers here): one that may be retried twice,
      //    one with no retries left. Retry policy is fixed on each job when it is sent.
      const enqueue = async (name: string, text: string, retryLimit: string) => {
        const env = await startTestEnv({
          workers: false,
          keep: true,
          dataDir,
          ...where,
          env: { ...common, LOG_LEVEL: 'silent', GENERATION_RETRY_LIMIT: retryLimit },
        });
        try {
          const client = await signedInClient(env, name);
          const res = await client.call('POST', '/api/prompt', { text, model: FAL_MODEL });
          expect(res.statusCode, res.body).toBe(202);
          return { client, jobId: res.json().job_id as string, cost: res.json().cost as number };
        } finally {
          await env.close();
        }
      };
      const resumable = await enqueue('alice', 'resume me after a crash', '2');
      const doomed = await enqueue('bob', 'give up on me', '0');

      // 2. A server picks both up, submits them to fal, and is killed while fal works on them.
      const port1 = await freePort();
      const first = startServerProcess({ ...common, PORT: String(port1), HOST: '127.0.0.1' });
      procs.push(first);
      const requestFor = (text: string) => [...fal.requests.values()].filter((r) => r.input.prompt === text);
      await eventually(
        async () =>
          ['resume me after a crash', 'give up on me'].every((t) => requestFor(t)[0]?.statusPolls)
            ? true
            : undefined,
        25_000,
        'both jobs to be running at fal',
      ).catch((err: Error) => {
        throw new Error(`${err.message}\n${first.output()}`);
      });
      first.child.kill('SIGKILL');
      await first.exited;

      // fal finishes the first request meanwhile; the second stays in progress for ever.
      const [requestA] = requestFor('resume me after a crash');
      requestA!.scenario.outcome = 'success';
      requestA!.scenario.runningPolls = 0;

      // 3. A new process on the same database notices the stalled jobs and deals with them.
      const port2 = await freePort();
      const second = startServerProcess({ ...common, PORT: String(port2), HOST: '127.0.0.1' });
      procs.push(second);
      const base = `http://127.0.0.1:${port2}`;
      const viewOf = async (token: string, jobId: string) => {
        const res = await fetch(`${base}/api/progress`, {
          headers: { authorization: `Bearer ${token}` },
        }).catch(() => undefined);
        if (!res?.ok) return undefined;
        return ((await res.json()) as { jobs: JobView[] }).jobs.find((j) => j.id === jobId);
      };
      const [jobA, jobB] = await eventually(
        async () => {
          const a = await viewOf(resumable.client.accessToken, resumable.jobId);
          const b = await viewOf(doomed.client.accessToken, doomed.jobId);
          return a?.status === 'succeeded' && b?.status === 'failed' ? [a, b] : undefined;
        },
        25_000,
        'the stalled jobs to be resumed and failed',
      ).catch(async (err: Error) => {
        // Say where it stuck: both jobs as the API shows them, what fal saw, and the server's log.
        const views = [
          await viewOf(resumable.client.accessToken, resumable.jobId),
          await viewOf(doomed.client.accessToken, doomed.jobId),
        ];
        const requests = [...fal.requests.values()].map((r) => ({
          prompt: r.input.prompt,
          polls: r.statusPolls,
          cancelled: r.cancelled,
        }));
        throw new Error(`${err.message}\n${JSON.stringify({ views, requests })}\n${second.output()}`);
      });

      expect(jobA).toMatchObject({ refunded: false, percent: 100 });
      expect(jobA!.image_ids).toHaveLength(1);
      // Resumed, not resubmitted: still exactly one fal request for it.
      expect(requestFor('resume me after a crash')).toHaveLength(1);
      expect(jobB).toMatchObject({ refunded: true });
      expect(jobB!.error).toMatch(
        /did not finish this job after several tries\. Your credits were refunded\.$/,
      );
      expect(requestFor('give up on me')).toHaveLength(1);
      // Nobody waits for it any more: the dead letter asked fal to stop it.
      expect(requestFor('give up on me')[0]!.cancelled).toBe(true);

      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);

      // 4. The ledger: one charge for the resumed job; one charge and one refund for the failed one.
      const check = await startTestEnv({
        workers: false,
        keep: true,
        dataDir,
        ...where,
        env: { ...common, LOG_LEVEL: 'silent' },
      });
      try {
        const rowsA = (await ledgerOf(check, resumable.client.userId)).filter(
          (r) => r.reference === `job:${resumable.jobId}`,
        );
        const rowsB = (await ledgerOf(check, doomed.client.userId)).filter(
          (r) => r.reference === `job:${doomed.jobId}`,
        );
        expect(rowsA.map((r) => r.amount)).toEqual([-resumable.cost]);
        expect(rowsB.map((r) => r.amount)).toEqual([-doomed.cost, doomed.cost]);
        expect(rowsA.at(-1)!.balanceAfter).toBe(100 - resumable.cost);
        expect(rowsB.at(-1)!.balanceAfter).toBe(100);
      } finally {
        await check.close();
      }
    } finally {
      for (const p of procs) p.child.kill('SIGKILL');
      await database.drop();
    }
  }, 60_000);
});
