/**
 * Shared pieces of the server benchmarks: a fresh database (PostgreSQL or a PGlite folder), the app
 * wired by the real composition root (with constructor-injected adapters), a signed-in person, stats,
 * and writing one section of docs/BENCHMARKS.md without touching the others.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import type { CatalogueAdapters } from '../apps/server/src/modules/models/model-catalogue.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, type Config } from '../apps/server/src/config.ts';
import { createContainer, type Container } from '../apps/server/src/container.ts';
import { createJobHandlers } from '../apps/server/src/queue/handlers.ts';
import { startWorkers } from '../apps/server/src/queue/workers.ts';
import { createLogger } from '../apps/server/src/logger.ts';

export const POSTGRES_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type BenchDb = 'postgres' | 'pglite' | 'pglite-memory';

export interface BenchEnv {
  kind: BenchDb;
  config: Config;
  container: Container;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lumina_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The app on a fresh database, workers in-process, as `npm start` wires it (plus injected adapters). */
export async function startBenchEnv(
  kind: BenchDb,
  options: {
    env?: Record<string, string>;
    adapters?: CatalogueAdapters;
    workers?: boolean;
    /** Log at this level as production does (default: silent), written to /dev/null instead of stdout. */
    logLevel?: string;
  } = {},
): Promise<BenchEnv> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumina-bench-'));
  const pgDb = kind === 'postgres' ? await freshPostgres() : undefined;
  const loaded = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    WELCOME_CREDITS: '1000000',
    // The benches drive one person from one address far faster than a person could; the product's
    // rate limits are not what they measure.
    RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
    RATE_LIMIT_IP_WRITE_PER_MINUTE: '1000000',
    RATE_LIMIT_PREVIEW_PER_MINUTE: '1000000',
    SSE_STREAMS_PER_USER: '1000',
    UPLOAD_QUOTA_BYTES: String(Number.MAX_SAFE_INTEGER),
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...options.env,
  });
  const config: Config =
    kind === 'pglite-memory'
      ? Object.freeze({ ...loaded, database: { ...loaded.database, embeddedDir: 'memory://' } })
      : loaded;
  const log = options.logLevel
    ? createLogger(options.logLevel, 'lumina', pino.destination({ dest: '/dev/null', sync: false }))
    : createLogger(config.logLevel);
  const container = await createContainer(config, log, { adapters: options.adapters });
  if (options.workers !== false) {
    await startWorkers(container.queue, createJobHandlers(container), {
      concurrency: config.queue.concurrency,
      log,
    });
  }
  const app = await buildApp(container);
  await app.ready();
  return {
    kind,
    config,
    container,
    app,
    async close() {
      await app.close();
      await container.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const SDK = { rid: 'passwordless', 'fdi-version': '3.1,4.0,4.1,4.2', 'content-type': 'application/json' };

/** A passwordless sign-in through the real routes, the code read from the dev mailbox. */
export async function signIn(
  env: Pick<BenchEnv, 'app' | 'container'>,
  email: string,
): Promise<{ userId: string; token: string }> {
  const started = await env.app.inject({
    method: 'POST',
    url: '/auth/signinup/code',
    headers: SDK,
    payload: { email, shouldTryLinkingWithSessionUser: false },
  });
  const { deviceId, preAuthSessionId } = started.json() as Record<string, string>;
  const code = env.container.services.auth.mailbox!.list({ to: email })[0]!.code!;
  const done = await env.app.inject({
    method: 'POST',
    url: '/auth/signinup/code/consume',
    headers: { ...SDK, 'st-auth-mode': 'header' },
    payload: { userInputCode: code, deviceId, preAuthSessionId, shouldTryLinkingWithSessionUser: false },
  });
  if (done.statusCode !== 200) throw new Error(`sign-in failed: ${done.body}`);
  return {
    userId: (done.json() as { user: { id: string } }).user.id,
    token: String(done.headers['st-access-token']),
  };
}

/** Wall and CPU (this process, all threads) time of one call. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ wall: number; cpu: number; value: T }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000, value };
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
};
export const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

export function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

export function machineNote(loadBefore: number, loadAfter: number): string {
  const cores = os.cpus().length;
  const busy = Math.max(loadBefore, loadAfter) > cores;
  return (
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cores} cores (${os.cpus()[0]?.model.trim()}), ` +
    `Node ${process.version}; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after.` +
    (busy ? ` **${cores}-core machine, other work running**: wall times include waiting for a core.` : '')
  );
}

/** Replaces (or appends) the `## <title>` section of docs/BENCHMARKS.md, keeping every other section. */
export function writeSection(title: string, body: string): void {
  const file = path.resolve(import.meta.dirname, '../docs/BENCHMARKS.md');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const heading = `## ${title}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  let out: string;
  if (start < 0) {
    out = `${text.trimEnd()}\n\n${section}`;
  } else {
    let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
    if (end < 0) end = lines.length;
    out = [...lines.slice(0, start), ...section.split('\n'), ...lines.slice(end)].join('\n');
  }
  writeFileSync(file, `${out.trimEnd()}\n`);
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const AUTOCANNON = path.resolve(import.meta.dirname, '../node_modules/autocannon/autocannon.js');

/**
 * autocannon in its own process (`autocannon --json`), so the load generator never competes with the
 * server for the same event loop: a server measured in the bench's process would otherwise share its
 * thread with the client that is timing it.
 */
export async function loadTest(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '-c', String(options.connections), '-d', String(options.seconds)];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`autocannon failed (${code}): ${Buffer.concat(err).toString()}`);
  const result = JSON.parse(Buffer.concat(out).toString()) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

/**
 * The baseline: a bare Fastify "hello world" in its own Node process (no plugins, no logging), the
 * ceiling any route on this machine could reach at that moment. Resolves with its URL and a stop().
 */
export async function startHelloWorld(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const script = `
    import Fastify from 'fastify';
    const app = Fastify();
    app.get('/', async () => ({ hello: 'world' }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    console.log(app.server.address().port);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: path.resolve(import.meta.dirname, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  const port = Number(first.toString().trim());
  if (!Number.isInteger(port)) throw new Error(`hello-world server did not start: ${first.toString()}`);
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc (Linux). Per request, this is
 * the figure a busy shared machine distorts least: waiting for a core adds wall time, not CPU time.
 */
export function cpuSecondsOf(pid: number): number {
  if (pid === process.pid) {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  }
  // Fields 14 and 15 (utime, stime) in clock ticks of 1/100 s; the name (field 2) may contain spaces.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Photo-like raw RGB pixels for one seed: smooth colour regions (a coarse random field, bicubic-upscaled)
 * plus grain, so codecs work as hard as on a camera's photo.
 */
export async function photoPixels(seed: number, width: number, height: number): Promise<Buffer> {
  let state = seed * 7919 + 12345;
  const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const coarse = Buffer.alloc(40 * 30 * 3);
  for (let i = 0; i < coarse.length; i++) coarse[i] = Math.floor(random() * 255);
  const base = await sharp(coarse, { raw: { width: 40, height: 30, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000000',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i++) base[i] = Math.max(0, Math.min(255, base[i]! + grain[i]! - 128));
  return base;
}
