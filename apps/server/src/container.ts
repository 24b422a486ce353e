import path from 'node:path';
import { createStorage } from './adapters/storage/index.ts';
import type { Storage } from './adapters/storage/storage.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { GALLERY_CHANNEL, ListingCache } from './modules/images/listing-cache.ts';
import { JobQueue } from './jobs/queue.ts';
import type { Logger } from './logger.ts';
import { createAuthModule, type AuthModule } from './modules/auth/auth.module.ts';
import { createFalTextToImage } from './adapters/providers/fal/fal.text-to-image.ts';
import { createFalWebhookVerifier, type FalWebhookVerifier } from './adapters/providers/fal/fal.webhook.ts';
import { LocalTextToImage } from './adapters/providers/local/local.text-to-image.ts';
import { ProviderRegistry, type ProviderAdapters } from './adapters/providers/registry.ts';
import { createReplicateTextToImage } from './adapters/providers/replicate/replicate.text-to-image.ts';
import {
  createReplicateWebhookVerifier,
  type ReplicateWebhookVerifier,
} from './adapters/providers/replicate/replicate.webhook.ts';
import { defaultFfmpegPath } from './adapters/media/video.ts';
import { LocalImageTools } from './adapters/providers/local/tools/local.image-tools.ts';
import { createFalImageTools } from './adapters/providers/fal/fal.image-tools.ts';
import { createReplicateImageTools } from './adapters/providers/replicate/replicate.image-tools.ts';
import {
  BUILT_IN_TOOL_MODELS,
  ToolRegistry,
  type ToolAdapters,
} from './adapters/providers/tools-catalogue.ts';
import { CreditLedger } from './modules/credits/credit-ledger.service.ts';
import { ToolJobs } from './modules/tools/tool-jobs.ts';
import { ToolsService } from './modules/tools/tools.service.ts';
import { VideosService } from './modules/tools/videos.service.ts';
import { ToolRunsService } from './modules/tool-runs/tool-runs.service.ts';
import { UploadsService } from './modules/uploads/uploads.service.ts';
import { configureDecodeSlots } from './adapters/media/decode-slots.ts';
import { createGenerationModule, type GenerationModule } from './modules/generation/generation.module.ts';
import { devSecret } from './secrets.ts';
import { DevelopmentGateway, StripeGateway } from './modules/payments/payments.gateway.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { ReviewsService } from './modules/reviews/reviews.service.ts';
import { createAnalytics, type Analytics } from './modules/analytics/analytics.ts';
import { ExampleSeeder, loadExampleSpecs } from './modules/examples/examples.seeder.ts';

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
    /** The sign-in layer: sessions, users, passwordless, sign-in hooks (`auth.hooks.onSignIn`). */
    auth: AuthModule;
    /** The model catalogue with each model's provider adapter. */
    models: ProviderRegistry;
    /** Generation jobs, progress and the gallery. */
    generation: GenerationModule;
    /** Image tools (edit, copy style, product holding, upscale, animate), uploads and videos. */
    tools: {
      registry: ToolRegistry;
      service: ToolsService<{ id: string }>;
      videos: VideosService;
      uploads: UploadsService;
      /** The Studio's history of runs (GET /api/tools/runs). */
      runs: ToolRunsService;
    };
    webhooks: { fal: FalWebhookVerifier; replicate?: ReplicateWebhookVerifier };
    /** Credit purchases (Stripe, or the development checkout without STRIPE_SECRET_KEY). */
    payments: PaymentsService;
    reviews: ReviewsService;
    /** Server-side product analytics (PostHog when POSTHOG_KEY is set, else nothing). */
    analytics: Analytics;
    /** Publishes the example set on a fresh install (EXAMPLES_SEED, EXAMPLES_FILE). */
    examples: ExampleSeeder;
  };
  /** Drains running jobs (up to `timeoutMs`, SHUTDOWN_TIMEOUT_MS by default), then closes the database. */
  close(timeoutMs?: number): Promise<void>;
}

export async function createContainer(
  config: Config,
  log: Logger,
  /** Constructor injection for benchmarks and tests: adapters used instead of the configured ones. */
  inject: {
    adapters?: Partial<ProviderAdapters>;
    toolAdapters?: Partial<ToolAdapters>;
    analytics?: Analytics;
  } = {},
): Promise<Container> {
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
      maintenanceIntervalSeconds: config.queue.maintenanceIntervalSeconds,
      heartbeatSeconds: config.queue.heartbeatSeconds,
      // Separate processes share PostgreSQL only; embedded PGlite is one process (in-process wakes).
      wakeUrl: config.database.url,
      log,
      overrides: {
        'generation.run': {
          expireInSeconds: config.generation.timeoutSeconds,
          retryLimit: config.generation.retryLimit,
          retryDelay: config.generation.retryDelaySeconds,
          retryBackoff: config.generation.retryDelaySeconds > 0,
        },
      },
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
  const ledger = new CreditLedger(database.db);
  const auth = createAuthModule(database.db, config, log);
  const localTextToImage = new LocalTextToImage();
  const models = new ProviderRegistry(config.models, {
    local: localTextToImage,
    fal: createFalTextToImage(config, { pollIntervalMs: config.providers.pollIntervalMs }),
    replicate: createReplicateTextToImage(config, { pollIntervalMs: config.providers.pollIntervalMs }),
    ...inject.adapters,
  });
  const ffmpegPath = defaultFfmpegPath(config.ffmpegPath);
  const toolRegistry = new ToolRegistry(BUILT_IN_TOOL_MODELS, {
    local: new LocalImageTools({ ffmpegPath, textToImage: localTextToImage }),
    fal: createFalImageTools(config, { pollIntervalMs: config.providers.pollIntervalMs }),
    replicate: createReplicateImageTools(config, { pollIntervalMs: config.providers.pollIntervalMs }),
    ...inject.toolAdapters,
  });
  const gallery = new ListingCache({
    ttlMs: config.galleryCache.seconds * 1000,
    maxBytes: config.galleryCache.maxBytes,
  });
  // Only API processes serve listings; without the notices (or with the cache set to 0 s) it stays off.
  const galleryNotices =
    config.galleryCache.seconds > 0 && config.roles.includes('api')
      ? await database.listen(GALLERY_CHANNEL, (payload) => gallery.heard(payload), {
          log,
          lostMessage: 'gallery change notices lost; listings are read from the database until they are back',
          onState: (listening) => gallery.setLive(listening),
        })
      : undefined;
  const generation = createGenerationModule({
    gallery,
    db: database.db,
    config,
    ledger,
    queue,
    storage,
    models,
    tools: new ToolJobs({ db: database.db, storage, registry: toolRegistry, ffmpegPath }),
    toolAdapters: (provider) => toolRegistry.adapter(provider as 'local'),
  });
  configureDecodeSlots({ concurrency: config.uploads.decodeConcurrency, queue: config.uploads.decodeQueue });
  const uploads = new UploadsService({
    db: database.db,
    storage,
    maxPixels: config.uploads.maxPixels,
    heicMaxPixels: config.uploads.heicMaxPixels,
    quotaBytes: config.limits.uploadQuotaBytes,
  });
  const videos = new VideosService(database.db, storage, generation.bus);
  const tools = {
    registry: toolRegistry,
    uploads,
    videos,
    runs: new ToolRunsService({ db: database.db, urls: storage, videos }),
    service: new ToolsService({
      db: database.db,
      jobs: generation.generation,
      registry: toolRegistry,
      uploads,
    }),
  };
  // Welcome credits: granted at most once per person (the idempotency key), so running this on every
  // sign-in also heals a first sign-in whose grant failed.
  if (config.generation.welcomeCredits > 0) {
    auth.hooks.onSignIn(async (user) => {
      await ledger.grant({
        userId: user.id,
        amount: config.generation.welcomeCredits,
        reason: 'welcome',
        idempotencyKey: `welcome:${user.id}`,
      });
    });
  }
  const analytics = inject.analytics ?? createAnalytics(config, log);
  auth.hooks.onSignIn((user, context) => {
    if (context.isNewUser) analytics.signedUp(user, context.factorId);
  });
  // Without a Stripe key (refused in production by config) purchases use the development checkout,
  // whose fake events are signed with a generated per-data-dir secret.
  const gateway = config.payments.stripe
    ? new StripeGateway(config.payments.stripe)
    : new DevelopmentGateway(
        `whsec_${devSecret(config.dataDir, 'stripeDevWebhookSecret')}`,
        config.auth.webUrl,
      );
  const payments = new PaymentsService({
    db: database.db,
    ledger,
    gateway,
    packages: config.payments.packages,
    webUrl: config.auth.webUrl,
    allowedOrigins: [config.publicUrl],
    checkoutExpirySeconds: config.payments.checkoutExpirySeconds,
    log,
    analytics,
  });
  const services = {
    ledger,
    payments,
    reviews: new ReviewsService(database.db),
    analytics,
    examples: new ExampleSeeder({
      db: database.db,
      storage,
      queue,
      models,
      specs: loadExampleSpecs(config.examples.file),
      log,
    }),
    auth,
    models,
    generation,
    tools,
    webhooks: { fal: createFalWebhookVerifier(config), replicate: createReplicateWebhookVerifier(config) },
  };

  return {
    config,
    log,
    database,
    queue,
    storage,
    fileUrlSecret,
    services,
    async close(timeoutMs = config.shutdownTimeoutMs) {
      await queue.stop(timeoutMs);
      await galleryNotices?.close();
      services.auth.close();
      await analytics.shutdown().catch(() => undefined);
      await database.close();
    },
  };
}
