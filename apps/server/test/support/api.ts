import { randomBytes } from 'node:crypto';
import type { JobView } from '@lumina/contracts';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { creditLedger } from '../../src/db/schema/index.ts';
import { signIn } from '../../src/modules/auth/auth.test-helpers.ts';
import type { TestEnv } from '../harness.ts';
import { startedForSuite } from './suite-scope.ts';

/** A signed-in person making product calls, the way the web app does (bearer access token). */
export interface Client {
  userId: string;
  email: string;
  /** The bearer token, for real-HTTP calls (SSE) or another process on the same database. */
  accessToken: string;
  call(method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse>;
}

let counter = 0;

export async function signedInClient(
  env: TestEnv,
  name = 'person',
  options: {
    email?: string;
    /** The client address of its calls (inject's default otherwise). */ address?: string;
  } = {},
): Promise<Client> {
  const email = options.email ?? `${name}-${Date.now()}-${counter++}@example.test`;
  const session = await signIn(env, email);
  return {
    userId: session.userId,
    email,
    accessToken: session.accessToken,
    call: (method, url, payload) =>
      env.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${session.accessToken}` },
        ...(options.address ? { remoteAddress: options.address } : {}),
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      }),
  };
}

/** A person signed in once for a whole suite, once the suite's env (`useTestEnv`) has started. */
export const useSignedIn = (env: TestEnv, name: string, options: { email?: string } = {}): Client =>
  startedForSuite(
    name,
    () => signedInClient(env, name, options),
    () => undefined,
  );

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const TERMINAL = ['succeeded', 'failed', 'cancelled'];

/** The job as `GET /api/progress` shows it. */
export async function jobView(client: Client, jobId: string): Promise<JobView | undefined> {
  const jobs = (await client.call('GET', '/api/progress')).json().jobs as JobView[];
  return jobs.find((j) => j.id === jobId);
}

/** Waits until the job ends with `status`; fails at once if it ends otherwise. */
export async function waitForJob(
  client: Client,
  jobId: string,
  status: 'succeeded' | 'failed' | 'cancelled' = 'succeeded',
  timeoutMs = 60_000,
): Promise<JobView> {
  return eventually(
    async () => {
      const job = await jobView(client, jobId);
      if (job && TERMINAL.includes(job.status) && job.status !== status) {
        throw new Error(`job ended ${job.status}: ${job.error}`);
      }
      return job?.status === status ? job : undefined;
    },
    timeoutMs,
    `job ${jobId} to be ${status}`,
  );
}

export const balanceOf = async (client: Client) =>
  (await client.call('GET', '/api/credits/balance')).json().balance as number;

/** The person's ledger rows, oldest first (to count charges and refunds exactly). */
export async function ledgerOf(env: TestEnv, userId: string) {
  return env.container.database.db
    .select()
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId))
    .orderBy(creditLedger.id);
}

/** How many times a job was charged and refunded, from the ledger itself (each must be at most once). */
export async function chargesOf(env: TestEnv, client: Client, jobId: string) {
  const rows = (await ledgerOf(env, client.userId)).filter((r) => r.reference === `job:${jobId}`);
  return {
    spends: rows.filter((r) => r.idempotencyKey.startsWith('spend:')).length,
    refunds: rows.filter((r) => r.idempotencyKey.startsWith('refund:')).length,
  };
}

/** A prompt no other test sends, so a vendor fake's requests can be told apart by it. */
export const uniquePrompt = (what: string) => `${what} ${randomBytes(4).toString('hex')}`;

/** Starts a text-to-image job (`POST /api/prompt`), which must be accepted (202). */
export async function prompt(client: Client, body: Record<string, unknown>) {
  const res = await client.call('POST', '/api/prompt', body);
  expect(res.statusCode, res.body).toBe(202);
  return res.json() as { job_id: string; cost: number; balance: number };
}
