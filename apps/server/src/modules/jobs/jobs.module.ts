import type { Config } from '../../config.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../../queue/queue.ts';
import type { CreditLedger } from '../credits/credit-ledger.service.ts';
import { countPublic, type PublicCounters } from './jobs.repository.ts';

export type { PublicCounters } from './jobs.repository.ts';
import { JobsService } from './jobs.service.ts';
import { JobWorker } from './jobs.worker.ts';
import { JobKinds, type JobFollower, type JobKind } from './kinds.ts';
import type { OutputStores } from './outputs.ts';
import { JobPreviews } from './previews.ts';
import { ProgressBus } from './progress.bus.ts';
import type { VendorBreaker } from '../vendors/vendor-breaker.ts';
import type { Clock } from '../../clock.ts';

export interface JobsModule {
  bus: ProgressBus;
  kinds: JobKinds;
  service: JobsService;
  worker: JobWorker;
  /** The public counters: images made, models trained, shoots delivered. */
  counter(): Promise<PublicCounters>;
}

/** The pipeline for every paid job, wired once per container with the table of job kinds. */
export function createJobsModule(deps: {
  db: Database;
  config: Config;
  ledger: CreditLedger;
  queue: JobQueue;
  kinds: readonly JobKind[];
  outputs: OutputStores;
  /** Follows jobs that are stages of something bigger (a photo shoot's purchase). */
  follower?: JobFollower;
  /** Hears every change to a person's jobs (the gallery cache drops their listings). */
  onChange: (userId: string) => void;
  /** Where live previews of running jobs are kept. */
  storage?: Storage;
  /** Each vendor's circuit breaker: failover skips open vendors. */
  breaker?: VendorBreaker;
  clock?: Clock;
}): JobsModule {
  const bus = new ProgressBus(deps.onChange);
  const previews = deps.storage && new JobPreviews(deps.storage);
  const kinds = new JobKinds(deps.kinds);
  const service = new JobsService({
    db: deps.db,
    ledger: deps.ledger,
    queue: deps.queue,
    bus,
    kinds,
    follower: deps.follower,
    previews,
  });
  const base = deps.config.generation.webhookBaseUrl;
  const worker = new JobWorker({
    db: deps.db,
    service,
    bus,
    kinds,
    outputs: deps.outputs,
    follower: deps.follower,
    webhookUrl: base ? (provider) => `${base}/api/webhooks/${provider}` : undefined,
    previews,
    breaker: deps.breaker,
    now: deps.clock ? () => deps.clock!.now() : undefined,
  });
  return {
    bus,
    kinds,
    service,
    worker,
    counter: () => countPublic(deps.db),
  };
}
