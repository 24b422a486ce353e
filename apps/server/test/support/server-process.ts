import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabaseUrl, tempDir } from '../harness.ts';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

/**
 * Runs the real server entry point as an operator would (its own process, only the environment
 * given), capturing its output.
 */
export function startServerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Waits up to a minute (a loaded machine starts slowly) for `/api/ready`; the last status seen. */
export async function waitUntilReady(baseUrl: string): Promise<number | undefined> {
  let ready: Response | undefined;
  for (let i = 0; i < 300 && !ready?.ok; i++) {
    await new Promise((r) => setTimeout(r, 200));
    ready = await fetch(`${baseUrl}/api/ready`).catch(() => undefined);
  }
  return ready?.status;
}

/**
 * A fresh database and data folder for tests that run the server as its own process (perhaps after
 * an in-process app on the same database): `env` for every process, `where` for `startTestEnv`, whose
 * embedded database then lives in the folder, where the server process looks for it.
 */
export async function processDatabase() {
  const dataDir = tempDir();
  const database = await freshDatabaseUrl();
  return {
    dataDir,
    drop: () => database.drop(),
    where: database.url ? { databaseUrl: database.url } : { embeddedDir: path.join(dataDir, 'pglite') },
    env: {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    },
  };
}

/** For tests that sign in with an in-process app, then use the token on real server processes. */
export const SESSIONS_ACROSS_PROCESSES = {
  LOG_LEVEL: 'warn',
  // Sessions are issued for this URL; the same on every process so tokens work across them.
  PUBLIC_URL: 'http://127.0.0.1',
};
