import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, loadDotEnv } from './config.ts';
import { createContainer } from './container.ts';
import { createJobHandlers } from './queue/handlers.ts';
import { startWorkers } from './queue/workers.ts';
import { createLogger } from './logger.ts';

/**
 * One codebase, two roles: `api` serves HTTP, `worker` runs jobs. Both run in one process by default
 * (required for embedded PGlite, which is a single in-process session); `--roles=worker` starts a
 * worker-only process for scale-out on PostgreSQL.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const rolesArg = process.argv.find((a) => a.startsWith('--roles='))?.slice('--roles='.length);
  let config;
  try {
    config = loadConfig(rolesArg ? { ...process.env, ROLES: rolesArg } : process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Lumina cannot start. ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  if (!config.database.url && config.roles.length === 1 && config.roles[0] === 'worker') {
    log.warn('A worker-only process on embedded PGlite has its own database; set DATABASE_URL to share one.');
  }

  const container = await createContainer(config, log);
  let app: FastifyInstance | undefined;

  closeWithGrace({ delay: config.shutdownTimeoutMs + 5_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'shutting down after an unexpected error');
    else log.info({ signal }, 'shutting down');
    // Stop taking requests and finish the ones in flight, then drain running jobs, then close the
    // database, all within one SHUTDOWN_TIMEOUT_MS (jobs get at least a second).
    const deadline = Date.now() + config.shutdownTimeoutMs;
    await app?.close();
    await container.close(Math.max(1000, deadline - Date.now()));
    log.info('stopped');
  });

  if (config.roles.includes('worker')) {
    await startWorkers(container.queue, createJobHandlers(container), {
      concurrency: config.queue.concurrency,
      log,
    });
    log.info({ concurrency: config.queue.concurrency }, 'worker started');
  }
  if (config.roles.includes('api')) {
    app = await buildApp(container);
    await app.listen({ port: config.port, host: config.host });
    log.info(
      { url: config.publicUrl, database: container.database.kind, storage: config.s3 ? 's3' : 'disk' },
      `Lumina is running at ${config.publicUrl}`,
    );
  }
  // A fresh install renders its example set in the background; start-up does not wait for it.
  if (config.examples.seed) void container.services.examples.requestSeeding();
}

main().catch((err) => {
  console.error('Lumina failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
