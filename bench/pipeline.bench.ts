/**
 * Pipeline overhead around the provider, in two topologies side by side in one run, both on
 * PostgreSQL: the baseline, one process (API + worker, as `npm start`), and the scale-out one, an API
 * process and two worker processes. Every Lumina process is bench/pipeline-server.ts (the production
 * wiring with an instant provider, a ready PNG, in place of the local engine), so what is measured is
 * ours: HTTP + validation + charge + job row + enqueue (one transaction) → waking a worker (in another
 * process in the scale-out) → the worker → storing the original and a WebP thumbnail → image rows →
 * job succeeded → `GET /api/images` lists it. This process is only the load generator, over real HTTP.
 *
 * Run: `npx tsx bench/pipeline.bench.ts [--runs 100] [--jobs 600] [--no-write] [--baseline <dir>]`.
 * `--failover`: instead, the cost of failover between vendors side by side (see measureFailover).
 * `--baseline <dir>`: also measure the pipeline servers of another checkout (an older commit, with its
 * node_modules), interleaved with this one's in the same run (per topology: baseline, then this
 * checkout), and report both and the ratio; nothing is written to the docs then.
 * PostgreSQL: a fresh database per topology on BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test). Writes the "Generation pipeline: one process and
 * scale-out" section of docs/BENCHMARKS.md. Targets (scale-out): median under 50 ms, at least 150
 * jobs/s with two worker processes of 4, and within 1.3× of one process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { Pool } from 'undici';
import { OUTPUT_SIDE } from './instant-provider.ts';
import { freshPostgres, machineNote, ms, percentile, table, writeSection } from './support.ts';

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = arg('--runs', 100);
const JOBS = arg('--jobs', 600);
const CLIENTS = 16;
const CONCURRENCY = 4;
const WRITE = !args.includes('--no-write');
/** `--only scale-out` or `--only one`: measure one topology (a quick look; never written to the docs). */
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
/** `--profile <dir>`: a V8 CPU profile of every Lumina process over the throughput phase. */
const PROFILE_DIR = args.includes('--profile')
  ? path.resolve(args[args.indexOf('--profile') + 1]!)
  : undefined;
/** `--sql`: every Lumina process prints the SQL statements it sent in the throughput phase, by count. */
const SQL_STATS = args.includes('--sql');
/** `--baseline <dir>`: another checkout whose pipeline server is measured beside this one's. */
const BASELINE = args.includes('--baseline')
  ? path.resolve(args[args.indexOf('--baseline') + 1]!)
  : undefined;
const THIS_CHECKOUT = path.resolve(import.meta.dirname, '..');
/** `--failover`: the cost of failover (issue 17), models side by side in one process; see measureFailover. */
const FAILOVER = args.includes('--failover');

interface Topology {
  name: string;
  /** The ROLES of each process; the first serves HTTP. */
  processes: string[];
}

const TOPOLOGIES: Topology[] = [
  { name: 'one process (API + worker)', processes: ['api,worker'] },
  { name: 'scale-out (API + 2 worker processes)', processes: ['api', 'worker', 'worker'] },
];

interface Result {
  topology: Topology;
  latencies: number[];
  jobsPerSecond: number;
  /** CPU time all Lumina processes spent per job during the throughput phase. */
  cpuMsPerJob: number;
  /** CPU time the PostgreSQL backends serving this bench's database spent per job in that phase. */
  pgCpuMsPerJob: number;
  /** Lumina CPU per job by process, in the order of the topology's processes. */
  cpuMsPerJobByProcess: number[];
}

const TICK_MS = 10; // /proc reports CPU time in clock ticks of 1/100 s (CLK_TCK) on Linux.

/**
 * CPU time (ms) used so far by each PostgreSQL backend connected to `database`, by pid, read from
 * /proc (the server runs on this machine). Background processes shared with other databases
 * (WAL writer, checkpointer) are not included.
 */
async function backendCpu(client: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1',
    [database],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // Gone meanwhile, or not on this machine.
    }
  }
  return cpu;
}

/** Starts one Lumina process of a checkout (its own bench/pipeline-server.ts) and resolves with its ready line. */
function startProcess(checkout: string, env: Record<string, string>) {
  const server = path.join(checkout, 'bench', 'pipeline-server.ts');
  // Run from the checkout, so tsx and every package resolve from its own node_modules.
  const child = spawn(process.execPath, ['--import', 'tsx', server], {
    cwd: checkout,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const cpuAnswers: Array<(ms: number) => void> = [];
  const ready = new Promise<{ port?: number; token?: string }>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{"ready"')) resolve(JSON.parse(line));
      if (line.startsWith('{"cpuMs"')) cpuAnswers.shift()?.((JSON.parse(line) as { cpuMs: number }).cpuMs);
    });
    child.once('exit', (code) => reject(new Error(`bench process exited (${code}) before it was ready`)));
  });
  /** The CPU time the process has used so far, in ms. */
  const cpuMs = () =>
    new Promise<number>((resolve) => {
      cpuAnswers.push(resolve);
      child.kill('SIGUSR2');
    });
  return { child, ready, cpuMs };
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function measure(topology: Topology, checkout = THIS_CHECKOUT): Promise<Result> {
  const db = await freshPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumina-bench-'));
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    WELCOME_CREDITS: '1000000',
    DATABASE_URL: db.url,
    // One person sending prompts far faster than a person could: the product's rate limits are not
    // what this bench measures (the default 60 writes a minute would refuse the throughput phase).
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
    RATE_LIMIT_IP_WRITE_PER_MINUTE: '1000000',
    QUEUE_POLL_INTERVAL_SECONDS: '0.5',
    WORKER_CONCURRENCY: String(CONCURRENCY),
    ...(PROFILE_DIR ? { BENCH_PROFILE_DIR: PROFILE_DIR } : {}),
    ...(SQL_STATS ? { BENCH_SQL_STATS: '1' } : {}),
  };
  // The API process first (it migrates the database), then the workers.
  const [first, ...others] = topology.processes;
  const api = startProcess(checkout, { ...env, ROLES: first! });
  const procs = [api];
  const counter = new pg.Client({ connectionString: db.url });
  try {
    const { port, token } = await api.ready;
    for (const roles of others) procs.push(startProcess(checkout, { ...env, ROLES: roles }));
    await Promise.all(procs.map((p) => p.ready));
    await counter.connect();
    const origin = `http://127.0.0.1:${port}`;
    const pool = new Pool(origin, { connections: CLIENTS + 4 });
    const call = async (method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) => {
      const res = await pool.request({
        method,
        path: url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.body.text();
      return { status: res.statusCode, text };
    };

    const oneJob = async (i: number) => {
      const text = `bench ${i}`;
      const t0 = performance.now();
      const res = await call('POST', '/api/prompt', {
        text,
        model: 'local-aurora',
        seed: i,
        aspect_ratio: '1:1',
      });
      if (res.status !== 202) throw new Error(`prompt: ${res.status} ${res.text}`);
      for (;;) {
        const page = JSON.parse((await call('GET', '/api/images?limit=1')).text) as {
          items: Array<{ prompt: string }>;
        };
        if (page.items[0]?.prompt === text) return performance.now() - t0;
        await new Promise((r) => setTimeout(r, 2));
      }
    };

    // Warm up: JIT, sharp, connection pools, every worker's first fetches.
    for (let i = 0; i < 20; i++) await oneJob(100_000 + i);

    const latencies: number[] = [];
    for (let i = 0; i < RUNS; i++) latencies.push(await oneJob(i));

    // Throughput: JOBS prompts sent as fast as CLIENTS concurrent clients can, until all succeeded.
    const succeeded = async () =>
      (await counter.query<{ n: number }>(`select count(*)::int as n from jobs where status = 'succeeded'`))
        .rows[0]!.n;
    const before = await succeeded();
    const cpuEach = () => Promise.all(procs.map((p) => p.cpuMs()));
    const database = new URL(db.url).pathname.slice(1);
    const pgBefore = await backendCpu(counter, database);
    const cpuBefore = await cpuEach();
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < JOBS) {
          const i = next++;
          const res = await call('POST', '/api/prompt', {
            text: `burst ${i}`,
            model: 'local-aurora',
            aspect_ratio: '1:1',
          });
          if (res.status !== 202) throw new Error(`prompt: ${res.status} ${res.text}`);
        }
      }),
    );
    while ((await succeeded()) - before < JOBS) await new Promise((r) => setTimeout(r, 10));
    const seconds = (performance.now() - t0) / 1000;
    const cpuMsPerJobByProcess = (await cpuEach()).map((after, i) => (after - cpuBefore[i]!) / JOBS);
    const cpuMsPerJob = cpuMsPerJobByProcess.reduce((a, b) => a + b, 0);
    let pgCpu = 0;
    for (const [pid, after] of await backendCpu(counter, database)) pgCpu += after - (pgBefore.get(pid) ?? 0);
    await pool.close();
    return {
      topology,
      latencies,
      jobsPerSecond: JOBS / seconds,
      cpuMsPerJob,
      cpuMsPerJobByProcess,
      pgCpuMsPerJob: pgCpu / JOBS,
    };
  } finally {
    await counter.end().catch(() => undefined);
    await Promise.all(procs.map((p) => stopProcess(p.child)));
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (FAILOVER) {
  await measureFailover();
  process.exit(0);
}

if (BASELINE) {
  await compareWithBaseline(BASELINE);
  process.exit(0);
}

/**
 * Failover's cost, side by side in one process (API + worker) on PostgreSQL, the variants taking turns
 * job by job so they share the machine's moments: a model without alternates (the baseline), the
 * same instant provider as a model with an alternate whose first vendor answers (the target: no
 * overhead), a model whose first vendor fails at once with a temporary problem so the job moves to its
 * alternate (what a move costs us, beyond the failing vendor's own time), and one whose first vendor's
 * breaker is open so the job skips it. fal.ai and Replicate are injected as vendors that fail at once
 * (BENCH_FAILOVER in pipeline-server.ts); every alternate is the instant local provider.
 */
async function measureFailover() {
  const variants = [
    { label: 'no alternates (baseline): local-aurora', model: 'local-aurora' },
    { label: 'alternates, first vendor answers: local-prism → fal', model: 'local-prism' },
    { label: 'first vendor fails, moved: flux-dev fal → local', model: 'flux-dev' },
    { label: 'first vendor’s breaker open, skipped: replicate → local', model: 'flux-schnell-replicate' },
  ];
  const local = { provider: 'local', providerModel: 'local/aurora' };
  const modelsJson = JSON.stringify([
    { id: 'local-prism', alternates: [{ provider: 'fal', providerModel: 'fal-ai/flux/dev' }] },
    { id: 'flux-dev', alternates: [local] },
    { id: 'flux-schnell-replicate', alternates: [local] },
  ]);
  const db = await freshPostgres();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumina-bench-'));
  const load0 = os.loadavg()[0]!;
  const api = startProcess(THIS_CHECKOUT, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    WELCOME_CREDITS: '1000000',
    DATABASE_URL: db.url,
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
    RATE_LIMIT_IP_WRITE_PER_MINUTE: '1000000',
    QUEUE_POLL_INTERVAL_SECONDS: '0.5',
    WORKER_CONCURRENCY: String(CONCURRENCY),
    ROLES: 'api,worker',
    BENCH_FAILOVER: '1',
    MODELS_JSON: modelsJson,
    // fal.ai fails every time here; its breaker must stay closed so every job pays for a real move.
    VENDOR_BREAKER_FAILURES: '1000',
    VENDOR_BREAKER_COOLDOWN_SECONDS: '86400',
  });
  const admin = new pg.Client({ connectionString: db.url });
  try {
    const { port, token } = await api.ready;
    await admin.connect();
    // Replicate's breaker open (as after repeated failures), for the "skipped" variant.
    await admin.query(
      `insert into vendor_health (vendor, state, consecutive_failures, opened_at) values ('replicate', 'open', 5, now())`,
    );
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 4 });
    const call = async (method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) => {
      const res = await pool.request({
        method,
        path: url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, text: await res.body.text() };
    };
    const oneJob = async (model: string, i: number) => {
      const text = `failover ${model} ${i}`;
      const t0 = performance.now();
      const res = await call('POST', '/api/prompt', { text, model, seed: i, aspect_ratio: '1:1' });
      if (res.status !== 202) throw new Error(`prompt: ${res.status} ${res.text}`);
      for (;;) {
        const page = JSON.parse((await call('GET', '/api/images?limit=1')).text) as {
          items: Array<{ prompt: string; provider: string }>;
        };
        if (page.items[0]?.prompt === text) {
          if (page.items[0].provider !== 'local')
            throw new Error(`${model}: made by ${page.items[0].provider}`);
          return performance.now() - t0;
        }
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    for (let i = 0; i < 10; i++) for (const v of variants) await oneJob(v.model, 100_000 + i);
    const latencies = variants.map(() => [] as number[]);
    for (let i = 0; i < RUNS; i++) {
      // Rotate who goes first, so no variant always follows the same one.
      for (let k = 0; k < variants.length; k++) {
        const j = (i + k) % variants.length;
        latencies[j]!.push(await oneJob(variants[j]!.model, i));
      }
    }
    await pool.close();
    const base = percentile(latencies[0]!, 50);
    const baseP95 = percentile(latencies[0]!, 95);
    const rows = variants.map((v, j) => [
      v.label,
      String(latencies[j]!.length),
      ms(percentile(latencies[j]!, 50)),
      ms(percentile(latencies[j]!, 95)),
      `${(percentile(latencies[j]!, 50) / base).toFixed(2)}×`,
      `${(percentile(latencies[j]!, 95) / baseP95).toFixed(2)}×`,
    ]);
    const out = table(['model', 'runs', 'median', 'p95', 'median ÷ baseline', 'p95 ÷ baseline'], rows);
    const note = machineNote(load0, os.loadavg()[0]!);
    console.log(out);
    console.log(note);
    const moveCost = percentile(latencies[2]!, 50) - percentile(latencies[1]!, 50);
    const skipCost = percentile(latencies[3]!, 50) - percentile(latencies[1]!, 50);
    if (WRITE) {
      writeSection(
        'Failover in the generation pipeline',
        `
What failover (issue 17) adds to a job, from \`POST /api/prompt\` to the image listed by
\`GET /api/images\`, on PostgreSQL, one process (API + worker, \`bench/pipeline-server.ts\` with
\`BENCH_FAILOVER=1\`): the instant local provider makes every image; fal.ai and Replicate are
injected as vendors that fail at once with a temporary problem. Four models take turns job by job in the
same run (${RUNS} rounds after 10 warm-up rounds): a model without alternates (the baseline), a model
with an alternate whose first vendor answers, a model whose first vendor fails so the job moves to
its alternate, and a model whose first vendor's breaker is open so the job skips it. Every job checks
its vendor's breaker (one indexed read of \`vendor_health\`), the baseline's too.
Command: \`npx tsx bench/pipeline.bench.ts --failover\`. Target: no overhead when the first vendor
answers (within noise of 1.00×).

${note}

${out}

A move costs ${ms(moveCost)} at the median beyond the failing vendor's own time (counting the failure
on the breaker, asking the vendor to drop the request, the job row's move, and the alternate's call);
skipping an open vendor costs ${ms(skipCost)}. A real vendor's failure costs what it takes that vendor to
fail (up to PROVIDER_TIMEOUT_SECONDS for one that never answers), which is what the breaker saves the
jobs after it opens.
`,
      );
    }
  } finally {
    await admin.end().catch(() => undefined);
    await stopProcess(api.child);
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The same measurement for the baseline checkout's servers and this one's, one after the other per
 * topology in one run (so both see the same machine), then a table of both and this ÷ baseline.
 */
async function compareWithBaseline(baseline: string) {
  const load0 = os.loadavg()[0]!;
  const rows: string[][] = [];
  for (const topology of TOPOLOGIES.filter((t) => !ONLY || t.name.startsWith(ONLY))) {
    process.stdout.write(`measuring ${topology.name}: baseline (${baseline})…\n`);
    const old = await measure(topology, baseline);
    process.stdout.write(`measuring ${topology.name}: this checkout…\n`);
    const now = await measure(topology, THIS_CHECKOUT);
    const row = (label: string, r: Result) => [
      `${topology.name}, ${label}`,
      String(r.latencies.length),
      ms(percentile(r.latencies, 50)),
      ms(percentile(r.latencies, 95)),
      `${r.jobsPerSecond.toFixed(1)} jobs/s`,
      `${r.cpuMsPerJob.toFixed(2)} ms`,
      `${r.pgCpuMsPerJob.toFixed(2)} ms`,
    ];
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    rows.push(row('baseline', old), row('this checkout', now), [
      `**${topology.name}, this ÷ baseline**`,
      '',
      ratio(percentile(now.latencies, 50), percentile(old.latencies, 50)),
      ratio(percentile(now.latencies, 95), percentile(old.latencies, 95)),
      ratio(now.jobsPerSecond, old.jobsPerSecond),
      ratio(now.cpuMsPerJob, old.cpuMsPerJob),
      ratio(now.pgCpuMsPerJob, old.pgCpuMsPerJob),
    ]);
  }
  console.log(
    table(
      [
        'topology, checkout',
        'runs',
        'median',
        'p95',
        `throughput (${JOBS} jobs)`,
        'Lumina CPU per job',
        'PostgreSQL CPU per job',
      ],
      rows,
    ),
  );
  console.log(machineNote(load0, os.loadavg()[0]!));
}

const loadBefore = os.loadavg()[0]!;
const results: Result[] = [];
for (const topology of TOPOLOGIES.filter((t) => !ONLY || t.name.startsWith(ONLY))) {
  process.stdout.write(`measuring ${topology.name}…\n`);
  results.push(await measure(topology));
}
const loadAfter = os.loadavg()[0]!;

if (results.length < 2) {
  for (const r of results) {
    console.log(
      `${r.topology.name}: median ${ms(percentile(r.latencies, 50))}, p95 ${ms(percentile(r.latencies, 95))}, ` +
        `${r.jobsPerSecond.toFixed(1)} jobs/s, Lumina CPU ${r.cpuMsPerJob.toFixed(2)} ms/job ` +
        `(${r.topology.processes.map((roles, i) => `${roles} ${r.cpuMsPerJobByProcess[i]!.toFixed(2)}`).join(', ')}), ` +
        `PostgreSQL CPU ${r.pgCpuMsPerJob.toFixed(2)} ms/job; load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    );
  }
  process.exit(0);
}
const [base, scaled] = results as [Result, Result];
const median = (r: Result) => percentile(r.latencies, 50);
const rows = results.map((r) => [
  r.topology.name,
  String(r.latencies.length),
  ms(median(r)),
  ms(percentile(r.latencies, 95)),
  ms(Math.max(...r.latencies)),
  `${r.jobsPerSecond.toFixed(1)} jobs/s`,
  `${r.cpuMsPerJob.toFixed(1)} ms`,
  `${r.pgCpuMsPerJob.toFixed(1)} ms`,
]);
rows.push([
  '**scale-out ÷ one process**',
  '',
  `**${(median(scaled) / median(base)).toFixed(2)}×**`,
  `${(percentile(scaled.latencies, 95) / percentile(base.latencies, 95)).toFixed(2)}×`,
  '',
  `**${(scaled.jobsPerSecond / base.jobsPerSecond).toFixed(2)}×**`,
  `${(scaled.cpuMsPerJob / base.cpuMsPerJob).toFixed(2)}×`,
  `${(scaled.pgCpuMsPerJob / base.pgCpuMsPerJob).toFixed(2)}×`,
]);
const out = table(
  [
    'topology',
    'runs',
    'median',
    'p95',
    'max',
    `throughput (${JOBS} jobs)`,
    'Lumina CPU per job',
    'PostgreSQL CPU per job',
  ],
  rows,
);
console.log(out);

if (WRITE) {
  writeSection(
    'Generation pipeline: one process and scale-out',
    `
From \`POST /api/prompt\` to the image being listed by \`GET /api/images\`, with an instant provider
(a ready ${OUTPUT_SIDE} × ${OUTPUT_SIDE} PNG injected through \`createContainer\`'s constructor argument in
place of the local engine), on PostgreSQL, in two topologies measured one after the other in the same
run: one process (API + worker) and the scale-out (one API process, two worker processes). Every
Lumina process is \`bench/pipeline-server.ts\` (production wiring, \`WORKER_CONCURRENCY=${CONCURRENCY}\`,
\`QUEUE_POLL_INTERVAL_SECONDS=0.5\`); the load generator is the bench's own process and talks real
HTTP (keep-alive). Latency: ${RUNS} jobs one after another after 20 warm-up jobs. Throughput: ${JOBS}
prompts from ${CLIENTS} concurrent clients, until all succeeded; "Lumina CPU per job" is the CPU time
all Lumina processes used in that phase divided by the jobs, "PostgreSQL CPU per job" the same for the
PostgreSQL backends serving the bench's database (read from \`/proc\`; the WAL writer and checkpointer,
shared with every database on the server, and the load generator are not included). CPU per job
holds far better than wall-clock numbers when the machine is busy.
Command: \`npx tsx bench/pipeline.bench.ts\`. Targets (scale-out): median under 50 ms, at least 150
jobs/s, within 1.3× of one process.

${machineNote(loadBefore, loadAfter)}

${out}

Against the targets (scale-out): median ${ms(median(scaled))} (target under 50 ms:
${median(scaled) < 50 ? 'met' : 'not met'}), ${scaled.jobsPerSecond.toFixed(1)} jobs/s (target 150:
${scaled.jobsPerSecond >= 150 ? 'met' : 'not met'}), ${(median(scaled) / median(base)).toFixed(2)}× one process's
median and ${(scaled.jobsPerSecond / base.jobsPerSecond).toFixed(2)}× its throughput (target within 1.3×:
${median(scaled) / median(base) <= 1.3 && scaled.jobsPerSecond / base.jobsPerSecond >= 1 / 1.3 ? 'met' : 'not met'}).
CPU bounds throughput here: at ${scaled.cpuMsPerJob.toFixed(1)} ms of Lumina CPU and
${scaled.pgCpuMsPerJob.toFixed(1)} ms of PostgreSQL CPU per job, ${os.cpus().length} otherwise idle cores would cap the
scale-out near ${((os.cpus().length * 1000) / (scaled.cpuMsPerJob + scaled.pgCpuMsPerJob)).toFixed(0)} jobs/s (before the load generator's own share); 150 jobs/s needs
at most ${((os.cpus().length * 1000) / 150).toFixed(1)} ms of CPU per job for everything on the machine.
The wall-clock numbers
above also wait for cores the other work on the machine holds (see the load average).
This section replaces, for this command, the in-process measurement in "Generation pipeline" above.

How: a job's enqueue transaction also sends a PostgreSQL \`NOTIFY\`, delivered when it commits; every
process with workers listens on a connection of its own and wakes an idle worker at once (the
sending process wakes its own directly). Before this, workers in another process found a job only
at their next poll.
`,
  );
}
process.exit(0);
