import type { Storage } from '../../adapters/storage/index.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { CreditLedger } from '../credits/credit-ledger.service.ts';
import { ImagesService } from '../images/images.service.ts';
import type { ListingCache } from '../images/listing-cache.ts';
import type { ToolJobs } from '../tools/tool-jobs.ts';
import { countGenerated } from './generation.repository.ts';
import { GenerationService, type ModelResolver } from './generation.service.ts';
import { GenerationWorker } from './generation.worker.ts';
import { ProgressBus } from './progress.bus.ts';

export interface GenerationModule {
  bus: ProgressBus;
  generation: GenerationService;
  worker: GenerationWorker;
  images: ImagesService;
  /** Gallery listings in memory (modules/images/listing-cache.ts). */
  gallery: ListingCache;
  counter(): Promise<number>;
}

/** Generation and the gallery, wired once per container. */
export function createGenerationModule(deps: {
  db: Database;
  config: Config;
  ledger: CreditLedger;
  queue: JobQueue;
  storage: Storage;
  models: ModelResolver;
  /** Image-tool jobs share this pipeline (modules/tools). */
  tools?: ToolJobs;
  toolAdapters?: ConstructorParameters<typeof GenerationService>[5];
  /** Gallery listings in memory; a job's change (new images) drops its owner's. */
  gallery: ListingCache;
}): GenerationModule {
  const bus = new ProgressBus((userId) => deps.gallery.changed(userId));
  const generation = new GenerationService(
    deps.db,
    deps.ledger,
    deps.queue,
    deps.models,
    bus,
    deps.toolAdapters,
  );
  const base = deps.config.generation.webhookBaseUrl;
  const worker = new GenerationWorker({
    db: deps.db,
    storage: deps.storage,
    models: deps.models,
    service: generation,
    bus,
    tools: deps.tools,
    webhookUrl: base ? (provider) => `${base}/api/webhooks/${provider}` : undefined,
  });
  return {
    bus,
    generation,
    worker,
    images: new ImagesService(deps.db, deps.storage, deps.config.generation.adminEmails, deps.gallery),
    gallery: deps.gallery,
    counter: () => countGenerated(deps.db),
  };
}
