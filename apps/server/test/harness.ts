import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { createContainer, type Container } from '../src/container.ts';
import { createJobHandlers } from '../src/queue/handlers.ts';
import { startWorkers } from '../src/queue/workers.ts';
import { createLogger } from '../src/logger.ts';
import { startedForSuite } from './support/suite-scope.ts';

/** Which database this test process runs on: set per Vitest project (see vitest.config.ts). */
export const testDb = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh, empty database for one test file: a new in-memory PGlite, or a new PostgreSQL database
 * created on the TEST_DATABASE_URL server and dropped afterwards. Migrations run on open, as in
 * production.
 */
export async function freshDatabaseUrl(): Promise<{ url?: string; drop(): Promise<void> }> {
  if (testDb === 'pglite') return { url: undefined, drop: async () => undefined };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `lumina_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * A fresh database that outlives one test env, for suites that stop and start the app on it: `where`
 * for `startTestEnv` (with `keep: true`), `drop` once the suite is done. Embedded, it is PGlite in
 * files under `dataDir`, which `drop` removes.
 */
export async function durableDatabase(dataDir = tempDir()) {
  const database = await freshDatabaseUrl();
  return {
    dataDir,
    where: database.url ? { databaseUrl: database.url } : { embeddedDir: path.join(dataDir, 'pglite') },
    async drop() {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function tempDir(prefix = 'lumina-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface TestEnv {
  config: Config;
  container: Container;
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` when started with `listen: true` (real HTTP: SSE, webhooks from fakes). */
  baseUrl?: string;
  close(): Promise<void>;
}

/**
 * The app on a fresh database and data folder, the way production wires it. Workers run in-process
 * unless `workers: false`. `env` adds settings; `keep` leaves the database and folder in place so a
 * test can start a second instance on them (restart tests).
 */
export async function startTestEnv(
  options: {
    env?: Record<string, string>;
    workers?: boolean;
    dataDir?: string;
    databaseUrl?: string;
    embeddedDir?: string;
    keep?: boolean;
    /** Adds routes before the app is ready (test-only routes that exercise shared plugins). */
    beforeReady?: (app: FastifyInstance) => void;
    /**
     * Listen on a real port of 127.0.0.1, known before config is loaded so PUBLIC_URL and
     * WEBHOOK_BASE_URL (unless given in `env`) point at it: fake vendors can deliver webhooks to it.
     */
    listen?: boolean;
    /** Provider adapters used instead of the configured ones (a failing vendor, say). */
    inject?: Parameters<typeof createContainer>[2];
    /** Where log lines go (default stdout); set LOG_LEVEL in `env` to see any. */
    logTo?: Parameters<typeof createLogger>[2];
  } = {},
): Promise<TestEnv> {
  const dataDir = options.dataDir ?? tempDir();
  const port = options.listen ? await freePort() : undefined;
  const baseUrl = port ? `http://127.0.0.1:${port}` : undefined;
  const database = options.databaseUrl || options.embeddedDir ? undefined : await freshDatabaseUrl();
  // A start that fails (a test of refused settings) leaves no database or folder behind.
  const discard = async () => {
    if (options.keep) return;
    await database?.drop();
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let created: Container | undefined;
  const start = async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      QUEUE_POLL_INTERVAL_SECONDS: '0.5',
      SHUTDOWN_TIMEOUT_MS: '5000',
      // Test apps close at once; the linger has its own test on a server process.
      SHUTDOWN_LINGER_MS: '0',
      // Suites fail a vendor on purpose many times in a row; a breaker opening midway would make their
      // outcomes depend on test order. Tests of the breaker set their own threshold.
      VENDOR_BREAKER_FAILURES: '1000',
      ...((options.databaseUrl ?? database?.url)
        ? { DATABASE_URL: (options.databaseUrl ?? database?.url)! }
        : {}),
      ...(baseUrl ? { PUBLIC_URL: baseUrl, WEBHOOK_BASE_URL: baseUrl } : {}),
      ...options.env,
    });
    const effective: Config = Object.freeze({
      ...config,
      database: {
        ...config.database,
        // Embedded tests use an in-memory PGlite unless the test needs files that survive a restart.
        embeddedDir: options.embeddedDir ?? 'memory://',
      },
    });
    const log = createLogger(effective.logLevel, 'lumina', options.logTo);
    const container = await createContainer(effective, log, options.inject);
    created = container;
    if (options.workers !== false) {
      await startWorkers(container.queue, createJobHandlers(container), { concurrency: 1, log });
    }
    const app = await buildApp(container);
    options.beforeReady?.(app);
    await app.ready();
    if (port) await app.listen({ port, host: '127.0.0.1' });
    return { effective, container, app };
  };
  const { effective, container, app } = await start().catch(async (err: unknown) => {
    await created?.close().catch(() => undefined);
    await discard();
    throw err;
  });
  return {
    config: effective,
    container,
    app,
    baseUrl,
    async close() {
      await app.close();
      await container.close();
      await discard();
    },
  };
}

/**
 * `startTestEnv` for a whole suite: started in `beforeAll`, closed in `afterAll`. Options may be a
 * function when they name something an earlier `beforeAll` starts (a fake vendor's URL).
 */
export function useTestEnv(
  options: Parameters<typeof startTestEnv>[0] | (() => Parameters<typeof startTestEnv>[0]) = {},
): TestEnv {
  return startedForSuite(
    'the test env',
    () => startTestEnv(typeof options === 'function' ? options() : options),
    (env) => env.close(),
  );
}
