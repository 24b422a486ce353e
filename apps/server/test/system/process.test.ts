import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startServerProcess, waitUntilReady, processDatabase } from '../support/server-process.ts';
import { freePort, startTestEnv, tempDir, testDb } from '../harness.ts';

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
    const database = await processDatabase();
    const server = startServerProcess({ ...database.env, PORT: String(port), HOST: '127.0.0.1' });
    try {
      expect(await waitUntilReady(`http://127.0.0.1:${port}`), server.output()).toBe(200);
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
  }, 120_000);

  it(`finishes every request, even ones whose client left, when SIGTERM arrives under load (${testDb})`, async () => {
    // One database connection for many clients: requests queue for it, as under a load run.
    const { server, port, stop } = await startReadyServer({ DATABASE_POOL_SIZE: '1', LOG_LEVEL: 'warn' });
    // A load generator (64 connections) that stops at once, dropping its requests in flight, and
    // people (8 connections) still using the site while the server shuts down.
    const load = new Agent({ connections: 64 });
    const people = new Agent({ connections: 8 });
    const answered: Array<{ url: string; status: number; body: string }> = [];
    let loading = true;
    let browsing = true;
    const client = (agent: Agent, going: () => boolean, record: boolean) => async () => {
      for (let i = 0; going(); i++) {
        const url = i % 2 ? '/api/ready' : '/api/example_images';
        try {
          const res = await request(`http://127.0.0.1:${port}${url}`, { dispatcher: agent });
          const body = await res.body.text();
          if (record) answered.push({ url, status: res.statusCode, body });
        } catch {
          // Dropped by the load generator, or refused once the server stopped accepting connections.
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    };
    try {
      const loaders = Array.from(
        { length: 64 },
        client(load, () => loading, false),
      );
      const browsers = Array.from(
        { length: 8 },
        client(people, () => browsing, true),
      );
      for (let waited = 0; answered.length < 50 && waited < 20_000; waited += 50) {
        await new Promise((r) => setTimeout(r, 50));
      }
      // The load run ends (its requests still queued in the server, nobody waiting for them) and the
      // server is told to stop right after.
      loading = false;
      await load.destroy();
      const stopping = Date.now();
      server.child.kill('SIGTERM');
      const code = await server.exited;
      // Within SHUTDOWN_TIMEOUT_MS (its default, 15 s).
      expect(Date.now() - stopping).toBeLessThan(15_000);
      browsing = false;
      await Promise.all([...loaders, ...browsers]);

      expect(code, server.output()).toBe(0);
      expect(answered.length).toBeGreaterThanOrEqual(50);
      // Every answer is either the work done properly or a clean refusal because the server is closing
      // (503 without readiness checks); none saw a closed database, which made /api/ready report
      // not_ready and other routes fail with a 500.
      const bad = answered.filter(
        (o) =>
          !(o.status === 200 && (o.url !== '/api/ready' || JSON.parse(o.body).status === 'ready')) &&
          !(o.status === 503 && !o.body.includes('checks')),
      );
      expect(bad, JSON.stringify(bad.slice(0, 3))).toEqual([]);
      // Nor did the requests nobody waited for any more: no error logged at all.
      expect(server.output()).not.toContain('Cannot use a pool after calling end');
      expect(server.output()).not.toMatch(/"level":50/);
    } finally {
      loading = false;
      browsing = false;
      await load.destroy().catch(() => undefined);
      await people.close();
      await stop();
    }
  }, 120_000);

  it('answers every request sent on a kept-alive connection just after SIGTERM: no connection reset', async () => {
    const { server, port, stop } = await startReadyServer({ SHUTDOWN_LINGER_MS: '5000' });
    const connections = await Promise.all(Array.from({ length: 30 }, () => keptAliveConnection(port)));
    try {
      // Each connection has carried one request and now sits idle in the server's keep-alive pool.
      for (const connection of connections) expect((await connection.get('/api/health')).status).toBe(200);
      server.child.kill('SIGTERM');
      for (let waited = 0; !server.output().includes('shutting down') && waited < 20_000; waited += 20) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const outcomes = await Promise.all(connections.map((c) => c.get('/api/health')));
      const resets = outcomes.filter((o) => o.error);
      expect(resets, JSON.stringify(resets.slice(0, 3))).toEqual([]);
      // Served, or refused for the restart and told to reconnect elsewhere.
      for (const outcome of outcomes) {
        expect([200, 503]).toContain(outcome.status);
        if (outcome.status === 503) {
          expect(outcome.headers.connection).toBe('close');
          expect(JSON.parse(outcome.body ?? '')).toMatchObject({
            detail: 'Lumina is restarting. Please try again in a moment.',
            code: 'SERVICE_UNAVAILABLE',
          });
        }
      }
      expect(await server.exited, server.output()).toBe(0);
    } finally {
      for (const connection of connections) connection.close();
      await stop();
    }
  }, 120_000);

  it('exits on SIGTERM after the pipe its log is written to has gone (parent died)', async () => {
    const { server, stop } = await startReadyServer({});
    try {
      // The reading end goes away, as when the parent that piped our output dies.
      server.child.stdout.destroy();
      server.child.stderr.destroy();
      server.child.kill('SIGTERM');
      const code = await Promise.race([
        server.exited,
        new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000)),
      ]);
      expect(code).toBe(0);
    } finally {
      await stop();
    }
  }, 120_000);
});

/**
 * One kept-alive HTTP/1.1 connection, used one request at a time: each `get` resolves with the answer's
 * status and headers, or with the error that ended the connection before an answer came.
 */
type Outcome = { status?: number; headers: Record<string, string>; body?: string; error?: string };

async function keptAliveConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffered = Buffer.alloc(0);
  let waiting: ((outcome: Outcome) => void) | undefined;
  const settle = (outcome: Outcome) => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.(outcome);
  };
  socket.on('data', (data: Buffer) => {
    buffered = Buffer.concat([buffered, data]);
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const [statusLine = '', ...lines] = buffered.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (buffered.length < end + 4 + length) return;
    const body = buffered.subarray(end + 4, end + 4 + length).toString('utf8');
    buffered = buffered.subarray(end + 4 + length);
    settle({ status: Number(statusLine.split(' ')[1]), headers, body });
  });
  socket.on('error', (err: NodeJS.ErrnoException) => settle({ headers: {}, error: err.code ?? err.message }));
  socket.on('close', () => settle({ headers: {}, error: 'closed without an answer' }));
  return {
    get(path: string) {
      return new Promise<Outcome>((resolve) => {
        if (socket.destroyed) return resolve({ headers: {}, error: 'closed without an answer' });
        waiting = resolve;
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
      });
    },
    close: () => socket.destroy(),
  };
}

/** A server process on a fresh database (this project's), once `/api/ready` answers 200. */
async function startReadyServer(env: Record<string, string>) {
  const port = await freePort();
  const database = await processDatabase();
  const server = startServerProcess({ ...database.env, PORT: String(port), HOST: '127.0.0.1', ...env });
  expect(await waitUntilReady(`http://127.0.0.1:${port}`), server.output()).toBe(200);
  return {
    server,
    port,
    async stop() {
      server.child.kill('SIGKILL');
      await database.drop();
    },
  };
}

describe(`shutdown on ${testDb}`, () => {
  it('waits for a request whose client has gone before closing the database', async () => {
    let release: () => void = () => undefined;
    const outcome: { value?: string } = {};
    const env = await startTestEnv({
      listen: true,
      // A handler that is still working (it needs the database after a pause) when shutdown starts.
      beforeReady: (app) =>
        app.get('/test/slow-query', async () => {
          await new Promise<void>((r) => (release = r));
          try {
            await env.container.database.ping();
            outcome.value = 'query ran';
          } catch (err) {
            outcome.value = (err as Error).message;
          }
          return { ok: true };
        }),
    });
    const started = fetch(`${env.baseUrl}/test/slow-query`, { signal: AbortSignal.timeout(300) });
    await expect(started).rejects.toThrow();
    // The client has gone and its socket is closed; the handler still runs. Shut down meanwhile.
    const closing = env.close();
    await new Promise((r) => setTimeout(r, 200));
    release();
    await closing;
    expect(outcome.value).toBe('query ran');
  }, 120_000);
});
