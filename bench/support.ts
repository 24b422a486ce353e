/**
 * Shared pieces of the server benchmarks: a fresh database (PostgreSQL or a PGlite folder), the app
 * wired by the real composition root (with constructor-injected adapters), a signed-in person, stats,
 * and writing one section of docs/BENCHMARKS.md without touching the others.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import type { ProviderAdapters } from '../apps/server/src/adapters/providers/registry.ts';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig, type Config } from '../apps/server/src/config.ts';
import { createContainer, type Container } from '../apps/server/src/container.ts';
import { createJobHandlers } from '../apps/server/src/jobs/handlers.ts';
import { startWorkers } from '../apps/server/src/jobs/workers.ts';
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
  options: { env?: Record<string, string>; adapters?: Partial<ProviderAdapters>; workers?: boolean } = {},
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
  const log = createLogger(config.logLevel);
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
