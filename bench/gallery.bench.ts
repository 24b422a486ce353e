/**
 * Gallery listing under load against a bare-Fastify baseline (issue 10): 10,000 images for one person
 * (and as many for another; rows bulk-inserted directly) on a fresh PostgreSQL database, then
 * `GET /api/images` (first page of 24, bearer token, signed file URLs, request logs at `info` written
 * to /dev/null as production writes them to stdout) at 50 connections, and a bare Fastify
 * "hello world" in its own process measured the same way in the same run. autocannon runs in its own
 * process for both. Rounds alternate baseline and Lumina so both see the same machine load; the
 * ratio is printed per round. Also prints the page query's plan (it must walk `images_user_created_idx`).
 *
 * Run: `npx tsx bench/gallery.bench.ts [--seconds 10] [--rounds 2] [--no-write] [--log-level info]
 * [--profile out.cpuprofile]`.
 * Writes the "Gallery listing against bare Fastify" section of docs/BENCHMARKS.md.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../apps/server/src/db/schema/index.ts';
import { images } from '../apps/server/src/db/schema/index.ts';
import { listImages } from '../apps/server/src/modules/images/images.repository.ts';
import {
  loadTest,
  machineNote,
  ms,
  signIn,
  startBenchEnv,
  startHelloWorld,
  cpuSecondsOf,
  table,
  writeSection,
  type LoadResult,
} from './support.ts';

const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SECONDS = Number(arg('--seconds') ?? 10);
const ROUNDS = Number(arg('--rounds') ?? 2);
const LOG_LEVEL = arg('--log-level') ?? 'info';
const WRITE = !args.includes('--no-write');
/** `--profile <file>`: a CPU profile of this process (the Lumina server) during the measured rounds only. */
const PROFILE = arg('--profile');
const IMAGES = 10_000;
const CONNECTIONS = 50;
const TARGET_RATIO = 0.1;
const TARGET_P99_MS = 30;

async function seed(env: Awaited<ReturnType<typeof startBenchEnv>>, owners: string[]) {
  const { db } = env.container.database;
  const t0 = Date.now();
  for (const owner of owners) {
    for (let start = 0; start < IMAGES; start += 1000) {
      await db.insert(images).values(
        Array.from({ length: 1000 }, (_, i) => {
          const id = randomUUID();
          return {
            id,
            userId: owner,
            storageKey: `images/${owner}/${id}.png`,
            thumbnailKey: `images/${owner}/${id}.webp`,
            contentType: 'image/png',
            width: 1024,
            height: 1024,
            bytes: 500_000,
            prompt: `image ${start + i}`,
            modelId: 'local-aurora',
            provider: 'local',
            seed: start + i,
            createdAt: new Date(Date.UTC(2026, 0, 1) + (start + i) * 60_000),
          };
        }),
      );
    }
  }
  console.log(`inserted ${owners.length * IMAGES} rows in ${Date.now() - t0} ms`);
}

async function pgAnalyze(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('analyze images');
  await client.end();
}

/** The exact SQL the repository runs for the first page (captured from drizzle), under EXPLAIN ANALYZE. */
async function explain(url: string, userId: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    let captured: { sql: string; params: unknown[] } | undefined;
    const db = drizzle(client, {
      schema,
      logger: { logQuery: (sql, params) => void (captured ??= { sql, params }) },
    });
    await listImages(db, userId, { ownerId: userId }, undefined, 25);
    const { rows } = await client.query(
      `explain (analyze, buffers, costs off) ${captured!.sql}`,
      captured!.params,
    );
    return [captured!.sql, '', ...rows.map((r: Record<string, string>) => r['QUERY PLAN'])].join('\n');
  } finally {
    await client.end();
  }
}

const loadBefore = os.loadavg()[0]!;
const env = await startBenchEnv('postgres', {
  workers: false,
  logLevel: LOG_LEVEL,
  env: { DATABASE_POOL_SIZE: '20' },
});
/** A load result plus the server's CPU time per request (microseconds) during it. */
type Measured = LoadResult & { cpuPerRequestUs: number };
const rounds: Array<{ hello: Measured; lumina: Measured }> = [];

async function measured(pid: number, url: string, headers?: Record<string, string>): Promise<Measured> {
  const cpu0 = cpuSecondsOf(pid);
  const result = await loadTest(url, { connections: CONNECTIONS, seconds: SECONDS, headers });
  const requests = result.rps * SECONDS;
  return { ...result, cpuPerRequestUs: ((cpuSecondsOf(pid) - cpu0) * 1e6) / requests };
}
let plan: string | undefined;
let pageSize: number | undefined;
try {
  const { userId, token } = await signIn(env, 'gallery@example.test');
  // Another person's images too, so the index has to pick one user's rows out of many.
  const other = await signIn(env, 'someone-else@example.test');
  await seed(env, [userId, other.userId]);
  await pgAnalyze(env.config.database.url!);
  plan = await explain(env.config.database.url!, userId);

  await env.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = env.app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}/api/images`;
  const headers = { authorization: `Bearer ${token}` };
  const first = await fetch(url, { headers });
  pageSize = ((await first.json()) as { items: unknown[] }).items.length;
  if (pageSize !== 24) throw new Error(`expected a page of 24, got ${pageSize}`);

  const hello = await startHelloWorld();
  try {
    // Warm-up (JIT, pools, caches) for both servers, not measured.
    await loadTest(hello.url, { connections: 10, seconds: 2 });
    await loadTest(url, { connections: 10, seconds: 2, headers });
    const profiler = PROFILE ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    for (let round = 1; round <= ROUNDS; round++) {
      const h = await measured(hello.pid, hello.url);
      const l = await measured(process.pid, url, headers);
      rounds.push({ hello: h, lumina: l });
      if (profiler && round === ROUNDS) {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(PROFILE!, JSON.stringify(profile));
        profiler.disconnect();
      }
      console.log(
        `round ${round}: hello ${h.rps.toFixed(0)}/s p99 ${ms(h.p99)}; ` +
          `gallery ${l.rps.toFixed(0)}/s p99 ${ms(l.p99)}; ratio ${((100 * l.rps) / h.rps).toFixed(1)} %; ` +
          `server CPU per request: hello ${h.cpuPerRequestUs.toFixed(0)} µs, gallery ${l.cpuPerRequestUs.toFixed(0)} µs`,
      );
    }
  } finally {
    await hello.stop();
  }
} finally {
  await env.close();
}
const loadAfter = os.loadavg()[0]!;

const out = table(
  [
    'round',
    'bare Fastify req/s',
    'bare p99',
    'gallery req/s',
    'gallery p50',
    'gallery p99',
    'ratio',
    'CPU µs/request (bare / gallery)',
    'errors / non-2xx',
  ],
  rounds.map(({ hello, lumina }, i) => [
    String(i + 1),
    hello.rps.toFixed(0),
    ms(hello.p99),
    lumina.rps.toFixed(0),
    ms(lumina.p50),
    ms(lumina.p99),
    `${((100 * lumina.rps) / hello.rps).toFixed(1)} %`,
    `${hello.cpuPerRequestUs.toFixed(0)} / ${lumina.cpuPerRequestUs.toFixed(0)}`,
    `${lumina.errors + hello.errors} / ${lumina.non2xx + hello.non2xx}`,
  ]),
);
console.log(out);
console.log(plan);
const failures: string[] = [];
if (!plan?.includes('images_user_created_idx'))
  failures.push('the page query does not use images_user_created_idx');
const met = (r: (typeof rounds)[number]) =>
  r.lumina.rps / r.hello.rps >= TARGET_RATIO && r.lumina.p99 < TARGET_P99_MS;
if (!rounds.every(met))
  failures.push(
    `a round below ${100 * TARGET_RATIO} % of bare Fastify or with p99 of ${TARGET_P99_MS} ms or more`,
  );
for (const f of failures) console.error(`target missed: ${f}`);
if (failures.length > 0) process.exitCode = 1;

if (WRITE) {
  writeSection(
    'Gallery listing against bare Fastify',
    `
\`GET /api/images\` (first page of ${pageSize}, signed file URLs, bearer token) for a person with
${IMAGES.toLocaleString('en')} images (and another person with as many) on PostgreSQL, ${CONNECTIONS} connections
for ${SECONDS} s per measurement, against a bare Fastify "hello world" (own process) measured the same way in the
same run; autocannon in its own process for both; rounds alternate the two after a 2 s warm-up of each.
The Lumina server logs at \`${LOG_LEVEL}\` (to /dev/null). Target: at least ${100 * TARGET_RATIO} % of bare
Fastify with p99 under ${TARGET_P99_MS} ms. Command: \`npx tsx bench/gallery.bench.ts\`.
"CPU µs/request" is the server process's own CPU time (user + system) per request during the round, the
figure machine load distorts least (PostgreSQL's share is not in it).

${machineNote(loadBefore, loadAfter)}

${out}

\`\`\`
${plan}
\`\`\`
`,
  );
}
process.exit(process.exitCode ?? 0);
