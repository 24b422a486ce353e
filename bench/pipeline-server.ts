/**
 * One Lumina process of the pipeline bench, wired like `main.ts` (the roles in ROLES, settings from the
 * environment the bench gives it) but with the instant provider in place of the local engine. Prints
 * one JSON line when ready: `{"ready":true}`, plus `port` and a signed-in person's `token` when it
 * serves HTTP. On SIGUSR2 it prints `{"cpuMs":…}`, the CPU time it has used so far, so the bench can
 * tell the CPU a phase cost, whatever else the machine is running. Stops on SIGTERM like the server:
 * requests, then jobs, then the database.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createContainer } from '../apps/server/src/container.ts';
import { createJobHandlers } from '../apps/server/src/jobs/handlers.ts';
import { startWorkers } from '../apps/server/src/jobs/workers.ts';
import { createLogger } from '../apps/server/src/logger.ts';
import { InstantProvider } from './instant-provider.ts';
import { signIn } from './support.ts';

const config = loadConfig(process.env);
const log = createLogger(config.logLevel);
const container = await createContainer(config, log, { adapters: { local: new InstantProvider() } });
let app: FastifyInstance | undefined;

process.once('SIGTERM', () => {
  void (async () => {
    await app?.close();
    await container.close();
    process.exit(0);
  })();
});

process.on('SIGUSR2', () => {
  const { user, system } = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ cpuMs: (user + system) / 1000 })}\n`);
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
