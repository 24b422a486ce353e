import path from 'node:path';
import { createStorage } from './adapters/storage/index.ts';
import type { Storage } from './adapters/storage/storage.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { JobQueue } from './jobs/queue.ts';
import type { Logger } from './logger.ts';
import { CreditLedger } from './modules/credits/credit-ledger.service.ts';
import { devSecret } from './secrets.ts';

/** The composition root: every adapter and service, wired explicitly, built once per process. */
export interface Container {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  queue: JobQueue;
  storage: Storage;
  /** Signs local file URLs (disk storage). */
  fileUrlSecret: string;
  services: {
    ledger: CreditLedger;
  };
  close(): Promise<void>;
}

export async function createContainer(config: Config, log: Logger): Promise<Container> {
  const database = await openDatabase({
    url: config.database.url,
    pgliteDir: config.database.embeddedDir,
    poolSize: config.database.poolSize,
  });
  let queue: JobQueue;
  try {
    queue = await JobQueue.start({
      executor: database.executor,
      pollIntervalSeconds: config.queue.pollIntervalSeconds,
    });
  } catch (err) {
    await database.close();
    throw err;
  }
  const fileUrlSecret = config.fileUrlSecret ?? devSecret(config.dataDir, 'fileUrlSecret');
  const storage = createStorage({
    s3: config.s3,
    root: path.join(config.dataDir, 'files'),
    signingSecret: fileUrlSecret,
  });
  const services = { ledger: new CreditLedger(database.db) };

  return {
    config,
    log,
    database,
    queue,
    storage,
    fileUrlSecret,
    services,
    async close() {
      await queue.stop(config.shutdownTimeoutMs);
      await database.close();
    },
  };
}
