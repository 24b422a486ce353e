import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshDatabaseUrl, tempDir, testDb } from '../harness.ts';

const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Runs the real server entry point as an operator would, capturing its output. */
function startServer(env: Record<string, string>) {
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

describe('the server process', () => {
  it('refuses to start with a bad PORT and names it', async () => {
    const server = startServer({ PORT: 'abc', DATA_DIR: tempDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Lumina cannot start. Invalid configuration:');
    expect(server.output()).toContain('PORT: ');
    expect(server.output()).toContain('(got "abc")');
  });

  it(`starts on ${testDb}, serves, and shuts down gracefully on SIGTERM`, async () => {
    const port = await freePort();
    const database = await freshDatabaseUrl();
    const dataDir = tempDir();
    const server = startServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      NODE_ENV: 'test',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    });
    try {
      let ready: Response | undefined;
      for (let i = 0; i < 150 && !ready?.ok; i++) {
        await new Promise((r) => setTimeout(r, 200));
        ready = await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => undefined);
      }
      expect(ready?.status, server.output()).toBe(200);
      expect(server.output()).toContain(`"database":"${testDb}"`);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('shutting down');
      expect(server.output()).toContain('"msg":"stopped"');
      await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
    } finally {
      server.child.kill('SIGKILL');
      await database.drop();
    }
  }, 60_000);
});
