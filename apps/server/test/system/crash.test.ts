import type { JobView } from '@lumina/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake, type FalFake } from '../fakes/fal-server.ts';
import { processDatabase, SESSIONS_ACROSS_PROCESSES, startServerProcess } from '../support/server-process.ts';
import { freePort, startTestEnv, testDb } from '../harness.ts';
import { eventually, ledgerOf, signedInClient } from '../support/api.ts';

/**
 * Crash safety with real processes: a worker SIGKILLed while a fal request runs stops its jobs'
 * heartbeats, and with the default settings (GENERATION_TIMEOUT_SECONDS=900, JOB_HEARTBEAT_SECONDS=5)
 * another process notices within seconds, not 15 minutes: on PostgreSQL a second worker that was
 * already running, on the embedded database the next start. The retry resumes the same fal request
 * (never a second, paid one) and succeeds, charged once; a job with no retries left goes to the dead
 * letter and is failed and refunded once.
 */

const FAL_MODEL = 'flux-schnell';

describe(`a worker killed mid-job on ${testDb}`, () => {
  let fal: FalFake;
  beforeAll(async () => {
    fal = await startFalFake();
  });
  afterAll(() => fal?.close());

  it('is picked up again within 60 s (same fal request, charged once), or failed and refunded once when out of retries', async () => {
    const { dataDir, where, env: processEnv, drop } = await processDatabase();
    const common = {
      ...processEnv,
      ...SESSIONS_ACROSS_PROCESSES,
      WELCOME_CREDITS: '100',
      FAL_KEY: fal.key,
      FAL_BASE_URL: fal.url,
      PROVIDER_POLL_INTERVAL_MS: '100',
      // Default time limit and heartbeat: only the heartbeat can bring the jobs back in time.
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

      // 2. A worker process picks both up, submits them to fal, and is killed while fal works on them.
      const first = startServerProcess({ ...common, ROLES: 'worker' });
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
      // 3. Another process on the same database: on PostgreSQL it is already running (a second worker,
      //    and the API) when the first is killed; PGlite is one process at a time, so it starts after.
      const port2 = await freePort();
      const base = `http://127.0.0.1:${port2}`;
      const startSecond = async () => {
        const proc = startServerProcess({ ...common, PORT: String(port2), HOST: '127.0.0.1' });
        procs.push(proc);
        await eventually(
          async () => ((await fetch(`${base}/api/health`).catch(() => undefined))?.ok ? true : undefined),
          30_000,
          'the second process to serve',
        );
        return proc;
      };
      const alreadyRunning = testDb === 'postgres';
      let second = alreadyRunning ? await startSecond() : undefined;

      // fal finishes the first request; the second stays in progress for ever.
      const [requestA] = requestFor('resume me after a crash');
      requestA!.scenario.outcome = 'success';
      requestA!.scenario.runningPolls = 0;

      first.child.kill('SIGKILL');
      await first.exited;
      const killedAt = Date.now();
      second ??= await startSecond();
      const survivor = second;
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
        // Within 60 s of the kill (the pg-boss time limit alone would take 15 minutes).
        Math.max(1000, 60_000 - (Date.now() - killedAt)),
        'the abandoned jobs to be resumed and failed',
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
        throw new Error(`${err.message}\n${JSON.stringify({ views, requests })}\n${survivor.output()}`);
      });

      expect(Date.now() - killedAt).toBeLessThan(60_000);
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

      survivor.child.kill('SIGTERM');
      expect(await survivor.exited).toBe(0);

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
      await drop();
    }
  }, 150_000);
});
