import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess } from '../support/server-process.ts';
import { freePort, freshDatabaseUrl, tempDir, testDb } from '../harness.ts';

describe('the server process', () => {
  it('refuses to start with a bad PORT and names it', async () => {
    const server = startServerProcess({ PORT: 'abc', DATA_DIR: tempDir() });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Lumina cannot start. Invalid configuration:');
    expect(server.output()).toContain('PORT: ');
    expect(server.output()).toContain('(got "abc")');
  });

  it(`starts on ${testDb}, serves, and shuts down gracefully on SIGTERM`, async () => {
    const port = await freePort();
    const database = await freshDatabaseUrl();
    const dataDir = tempDir();
    const server = startServerProcess({
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
