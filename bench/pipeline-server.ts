/**
 * One Lumina process of the pipeline bench, wired like `main.ts` (the roles in ROLES, settings from the
 * environment the bench gives it) but with the instant provider in place of the local engine. Prints
 * one JSON line when ready: `{"ready":true}`, plus `port` and a signed-in person's `token` when it
 * serves HTTP. On SIGUSR2 it prints `{"cpuMs":…}`, the CPU time it has used so far, so the bench can
 * tell the CPU a phase cost, whatever else the machine is running. Stops on SIGTERM like the server:
 * requests, then jobs, then the database.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContainer } from '../apps/server/src/container.ts';
import { createJobHandlers } from '../apps/server/src/queue/handlers.ts';
import { startWorkers } from '../apps/server/src/queue/workers.ts';
import { createLogger } from '../apps/server/src/logger.ts';
import { FailingProvider, InstantProvider } from './instant-provider.ts';
import { signIn } from './support.ts';

const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
// BENCH_FAILOVER: fal.ai and Replicate fail at once (temporary), so models whose first vendor is one of
// them move to their alternate (the instant local provider); see the failover part of pipeline.bench.ts.
const failover = process.env.BENCH_FAILOVER === '1';
const container = await createContainer(config, log, {
  adapters: {
    local: { textToImage: new InstantProvider() },
    ...(failover
      ? {
          fal: { textToImage: new FailingProvider('fal') },
          replicate: { textToImage: new FailingProvider('replicate') },
        }
      : {}),
  },
});
let app: FastifyInstance | undefined;

process.once('SIGTERM', () => {
  void (async () => {
    await app?.close();
    await container.close();
    process.exit(0);
  })();
});

// Diagnostics for `--profile` and `--sql`: the bench asks for the CPU time twice per process, at the
// start and the end of its throughput phase, so the first SIGUSR2 starts them and the second stops them.
const profileDir = process.env.BENCH_PROFILE_DIR;
const sqlStats = process.env.BENCH_SQL_STATS ? new Map<string, number>() : undefined;
let measuring = false;
if (sqlStats) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (measuring) {
      const first = args[0] as string | { text?: string };
      const text = (typeof first === 'string' ? first : (first?.text ?? '?'))
        .replace(/\s+/g, ' ')
        .slice(0, 140);
      sqlStats.set(text, (sqlStats.get(text) ?? 0) + 1);
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}
const session = profileDir ? new Session() : undefined;
session?.connect();

process.on('SIGUSR2', () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ cpuMs: (user + system) / 1000 })}\n`);
  measuring = !measuring;
  if (measuring) {
    sqlStats?.clear();
    void session?.post('Profiler.enable').then(() => session.post('Profiler.start'));
    return;
  }
  if (sqlStats) {
    const total = [...sqlStats.values()].reduce((a, b) => a + b, 0);
    const lines = [...sqlStats]
      .sort((a, b) => b[1] - a[1])
      .map(([text, n]) => `${String(n).padStart(6)}  ${text}`);
    process.stderr.write(
      `[${process.env.ROLES} ${process.pid}] ${total} SQL statements:\n${lines.join('\n')}\n`,
    );
  }
  if (session) {
    void session.post('Profiler.stop').then(({ profile }) => {
      const file = path.join(profileDir!, `${process.env.ROLES}-${process.pid}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
    });
  }
});

if (config.roles.includes('worker')) {
  await startWorkers(container.queue, createJobHandlers(container), {
    concurrency: config.queue.concurrency,
    log,
  });
}
if (config.roles.includes('api')) {
  app = await buildApp(container);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const { token } = await signIn({ app, container }, `bench-${Date.now()}@example.test`);
  process.stdout.write(`${JSON.stringify({ ready: true, port, token })}\n`);
} else {
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
}
