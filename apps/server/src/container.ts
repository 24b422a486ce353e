import path from 'node:path';
import { contentCredentials, developmentCredentials } from './adapters/c2pa/c2pa.ts';
import { createStorage } from './adapters/storage/index.ts';
import type { Storage } from './adapters/storage/storage.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { GALLERY_CHANNEL, ListingCache } from './modules/images/listing-cache.ts';
import { JobQueue } from './queue/queue.ts';
import type { Logger } from './logger.ts';
import { createAuthModule, type AuthModule } from './modules/auth/auth.module.ts';
import { createFalTextToImage } from './adapters/providers/fal/fal.text-to-image.ts';
import { createFalTrainer } from './adapters/providers/fal/fal.trainer.ts';
import { LocalTrainer } from './adapters/providers/local/training/local-trainer.ts';
import { createReplicateTrainer } from './adapters/providers/replicate/replicate.trainer.ts';
import { createFalWebhookVerifier, type FalWebhookVerifier } from './adapters/providers/fal/fal.webhook.ts';
import { LocalTextToImage } from './adapters/providers/local/local.text-to-image.ts';
import { createReplicateTextToImage } from './adapters/providers/replicate/replicate.text-to-image.ts';
import {
  createReplicateWebhookVerifier,
  type ReplicateWebhookVerifier,
} from './adapters/providers/replicate/replicate.webhook.ts';
import { defaultFfmpegPath } from './adapters/media/video.ts';
import { LocalImageTools } from './adapters/providers/local/tools/local.image-tools.ts';
import { createFalImageTools } from './adapters/providers/fal/fal.image-tools.ts';
import { createReplicateImageTools } from './adapters/providers/replicate/replicate.image-tools.ts';
import { createComfyImageTools } from './adapters/providers/comfyui/comfyui.image-tools.ts';
import { createComfyTextToImage } from './adapters/providers/comfyui/comfyui.text-to-image.ts';
import { createA1111ImageTools } from './adapters/providers/a1111/a1111.image-tools.ts';
import { createA1111TextToImage } from './adapters/providers/a1111/a1111.text-to-image.ts';
import {
  createOpenAIImageTools,
  createOpenAITextToImage,
} from './adapters/providers/openai/openai.text-to-image.ts';
import { ModelCatalogue, type CatalogueAdapters } from './modules/models/model-catalogue.ts';
import { CreditLedger } from './modules/credits/credit-ledger.service.ts';
import { ToolsService } from './modules/tools/tools.service.ts';
import { VideosService } from './modules/videos/videos.service.ts';
import { videoOutput } from './modules/videos/video-output.ts';
import { SERVER_TOOLS } from './modules/tools/definitions/index.ts';
import { toolKind } from './modules/tools/tool-kind.ts';
import { ToolRunsService } from './modules/tool-runs/tool-runs.service.ts';
import { UploadsService } from './modules/uploads/uploads.service.ts';
import { TrainingSetsService } from './modules/training-sets/training-sets.service.ts';
import { OnboardingService } from './modules/onboarding/onboarding.service.ts';
import { configureDecodeSlots } from './adapters/media/decode-slots.ts';
import { GenerationService } from './modules/generation/generation.service.ts';
import { textToImageKind } from './modules/generation/text-to-image.kind.ts';
import { ImagesService } from './modules/images/images.service.ts';
import { imageOutput } from './modules/images/image-output.ts';
import { createJobsModule, type JobsModule, type PublicCounters } from './modules/jobs/jobs.module.ts';
import { catalogueModels } from './modules/jobs/models.ts';
import { modelOutput } from './modules/training/model-output.ts';
import { PersonalModels, trainedStyles } from './modules/training/personal-models.ts';
import { trainKind } from './modules/training/train.kind.ts';
import { TrainingService } from './modules/training/training.service.ts';
import { devSecret } from './secrets.ts';
import { DevelopmentGateway, StripeGateway } from './modules/payments/payments.gateway.ts';
import { PaymentsService } from './modules/payments/payments.service.ts';
import { ReviewsService } from './modules/reviews/reviews.service.ts';
import { ProductsService } from './modules/products/products.service.ts';
import { PurchasePayments } from './modules/products/purchase-payments.ts';
import { ReferralRewards } from './modules/referrals/referral-rewards.ts';
import type { ShootPipeline } from './modules/products/purchase-pipeline.ts';
import { PurchaseRefundsService } from './modules/products/purchase-refunds.ts';
import { createAnalytics, type Analytics } from './modules/analytics/analytics.ts';
import { ExampleSeeder, loadExampleSpecs } from './modules/examples/examples.seeder.ts';
import type { PurchaseRefunds } from './modules/products/purchase-pipeline.ts';
import { purchaseFollower, ShootPipelineService } from './modules/products/shoot-pipeline.ts';
import { ReferralsService } from './modules/referrals/referrals.service.ts';
import { VendorBreaker } from './modules/vendors/vendor-breaker.ts';
import { VendorsService } from './modules/vendors/vendors.service.ts';
import { createOpenAIModeration } from './adapters/providers/openai/openai.moderation.ts';
import { openaiTextModeration } from './modules/safety/openai-moderation.ts';
import { createTextScreener, type TextScreener } from './modules/safety/text-screener.ts';

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
    /** The model catalogue (text-to-image and the image tools) with each model's vendor adapter. */
    models: ModelCatalogue;
    /** Every paid job, whatever its kind: start, progress, cancel, run, refund (modules/jobs). */
    jobs: JobsModule;
    /** Text-to-image: a prompt becomes a job. */
    generation: GenerationService;
    /** Content safety (modules/safety): the text screen every request's text goes through before a charge. */
    safety: { text: TextScreener };
    /** Training your own model (a paid job), and the person's trained models. */
    training: { service: TrainingService; personal: PersonalModels };
    /** The gallery: images, their listings in memory, and the public counter. */
    images: {
      service: ImagesService;
      /** Gallery listings in memory (modules/images/listing-cache.ts). */
      gallery: ListingCache;
      counter(): Promise<PublicCounters>;
    };
    /** The person's videos (jobs whose output is a video). */
    videos: VideosService;
    /** The image tools (their definitions in modules/tools/definitions) and uploads. */
    tools: {
      service: ToolsService<{ id: string }>;
      uploads: UploadsService;
      /** The Studio's history of runs (GET /api/tools/runs). */
      runs: ToolRunsService;
    };
    webhooks: { fal?: FalWebhookVerifier; replicate?: ReplicateWebhookVerifier };
    /** Credit purchases (Stripe, or the development checkout without STRIPE_SECRET_KEY). */
    payments: PaymentsService;
    reviews: ReviewsService;
    /** Server-side product analytics (PostHog when POSTHOG_KEY is set, else nothing). */
    analytics: Analytics;
    /** Publishes the example set on a fresh install (EXAMPLES_SEED, EXAMPLES_FILE). */
    examples: ExampleSeeder;
    /** People's training photos (modules/training-sets). */
    trainingSets: TrainingSetsService;
    /** Onboarding answers and the photo sets still waiting to be used (modules/onboarding). */
    onboarding: OnboardingService;
    /** Products on sale, what people bought, refunds, and delivering a paid photo shoot (modules/products). */
    products: { service: ProductsService; refunds: PurchaseRefundsService; pipeline: ShootPipelineService };
    /** The referral programme's codes, bindings and numbers (modules/referrals). */
    referrals: ReferralsService;
    /** Referral rewards: paid with a first payment, settled after REFERRAL_SETTLE_DAYS (modules/referrals). */
    referralRewards: ReferralRewards;
    /** Each vendor's circuit breaker, shared by every process through the database (modules/vendors). */
    vendors: { breaker: VendorBreaker; service: VendorsService };
  };
  /** Drains running jobs (up to `timeoutMs`, SHUTDOWN_TIMEOUT_MS by default), then closes the database. */
  close(timeoutMs?: number): Promise<void>;
}

export async function createContainer(
  config: Config,
  log: Logger,
  /** Constructor injection for benchmarks and tests: adapters used instead of the configured ones. */
  inject: {
    /** Per vendor, adapters used instead of the configured ones (`{ local: { textToImage } }`). */
    adapters?: CatalogueAdapters;
    analytics?: Analytics;
    /** Delivers paid photo shoots (tests record its calls). */
    shootPipeline?: ShootPipeline;
    /** Failing and refunding a purchase (the buying side's, modules/products), for tests of delivery. */
    purchaseRefunds?: PurchaseRefunds;
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
        'job.run': {
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
  try {
    // Encrypts stored signing keys with AUTH_KEYS_ENCRYPTION_KEY; a key it cannot open stops start-up.
    await auth.keys.secureStoredKeys(log);
    // The same for the keys of the OpenID provider (Sign in with Lumina).
    await auth.oauthProvider.secureStoredSecrets();
  } catch (err) {
    await queue.stop(0);
    await database.close();
    throw err;
  }
  // A trained local model's style profile is read from our storage when a job applies it.
  const localTextToImage = new LocalTextToImage({ styles: trainedStyles({ db: database.db, storage }) });
  const ffmpegPath = defaultFfmpegPath(config.ffmpegPath);
  const polling = { pollIntervalMs: config.providers.pollIntervalMs };
  const injected = inject.adapters ?? {};
  const adapters: CatalogueAdapters = {
    local: {
      textToImage: localTextToImage,
      tools: new LocalImageTools({ ffmpegPath, textToImage: localTextToImage }),
      trainer: new LocalTrainer(),
      ...injected.local,
    },
    fal: {
      textToImage: createFalTextToImage(config, polling),
      tools: createFalImageTools(config, polling),
      trainer: createFalTrainer(config, polling),
      ...injected.fal,
    },
    replicate: {
      textToImage: createReplicateTextToImage(config, polling),
      tools: createReplicateImageTools(config, polling),
      trainer: createReplicateTrainer(config, {
        ...polling,
        trainingOwner: config.providers.replicate.trainingOwner,
      }),
      ...injected.replicate,
    },
    comfyui: {
      textToImage: createComfyTextToImage(config),
      tools: createComfyImageTools(config),
      ...injected.comfyui,
    },
    a1111: {
      textToImage: createA1111TextToImage(config, { ...polling, log }),
      tools: createA1111ImageTools(config, { ...polling, log }),
      ...injected.a1111,
    },
    openai: {
      textToImage: createOpenAITextToImage(config, { log }),
      tools: createOpenAIImageTools(config, { log }),
      ...injected.openai,
    },
  };
  const models = new ModelCatalogue(config.models, adapters);
  const openaiModeration = createOpenAIModeration(config);
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
  const jobModels = catalogueModels(models);
  // The container's one clock (the sign-in layer's): tests move it to end a breaker's cool-down.
  const breaker = new VendorBreaker({
    db: database.db,
    clock: auth.clock,
    settings: config.providers.breaker,
  });
  // Every output, image or video, carries C2PA content credentials signed with the operator's certificate.
  const signing = {
    credentials: contentCredentials(config.c2pa ?? (await developmentCredentials(config.dataDir))),
    modelName: (id: string) => models.find(id)?.displayName ?? id,
  };
  const jobs = createJobsModule({
    db: database.db,
    config,
    ledger,
    queue,
    kinds: [
      textToImageKind(jobModels),
      ...SERVER_TOOLS.map((tool) => toolKind(tool, { db: database.db, storage, models: jobModels })),
      trainKind({ db: database.db, storage, models: jobModels }),
    ],
    outputs: {
      images: imageOutput(storage, signing),
      video: videoOutput({ storage, ffmpegPath, signing }),
      model: modelOutput({ db: database.db, storage }),
    },
    // A job of a purchase moves the purchase on (a queued `purchase.advance`, in the job's own commit).
    follower: purchaseFollower(queue),
    // A job's change (new images) drops its owner's gallery listings.
    onChange: (userId) => gallery.changed(userId),
    storage,
    breaker,
    clock: auth.clock,
  });
  const personal = new PersonalModels({
    db: database.db,
    storage,
    catalogue: models,
    publicUrl: config.publicUrl,
  });
  const textScreener = createTextScreener({
    policy: config.safety.policy,
    moderation: openaiModeration && openaiTextModeration(openaiModeration),
    log,
  });
  const generation = new GenerationService(models, jobs.service, textScreener, personal);
  const training = {
    personal,
    service: new TrainingService({
      db: database.db,
      storage,
      catalogue: models,
      jobs: jobs.service,
      settings: {
        trainer: config.providers.trainer,
        replicateConfigured: Boolean(config.providers.replicate.apiToken),
        replicateOwner: config.providers.replicate.trainingOwner,
      },
    }),
  };
  const images = {
    service: new ImagesService(database.db, storage, (userId) => auth.users.isOperator(userId), gallery),
    gallery,
    counter: jobs.counter,
  };
  configureDecodeSlots({
    concurrency: config.uploads.decodeConcurrency,
    queue: config.uploads.decodeQueue,
    queuePerPerson: config.uploads.decodeQueuePerPerson,
  });
  const uploads = new UploadsService({
    db: database.db,
    storage,
    maxPixels: config.uploads.maxPixels,
    heicMaxPixels: config.uploads.heicMaxPixels,
    quotaBytes: config.limits.uploadQuotaBytes,
  });
  const videos = new VideosService({ db: database.db, storage, bus: jobs.bus, kinds: jobs.kinds });
  const tools = {
    uploads,
    runs: new ToolRunsService({ db: database.db, urls: storage, videos }),
    service: new ToolsService({
      db: database.db,
      jobs: jobs.service,
      registry: models,
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
  // Built after payments (a failed shoot refunds through them), so payments reach it late.
  const delivery: { pipeline?: ShootPipeline } = {};
  // After the commit that started a shoot: its training runs now, and the buyer's pages hear of it.
  const shootStarted = (userId: string) => {
    jobs.service.wake();
    jobs.bus.changed(userId);
  };
  const referralRewards = new ReferralRewards({
    db: database.db,
    ledger,
    gateway,
    queue,
    settings: config.referrals,
    log,
    // The container's one clock: tests move it past the settling period.
    now: () => new Date(auth.clock.now()),
  });
  const payments = new PaymentsService({
    purchases: new PurchasePayments(() => delivery.pipeline!, shootStarted),
    db: database.db,
    ledger,
    gateway,
    packages: config.payments.packages,
    webUrl: config.auth.webUrl,
    allowedOrigins: [config.publicUrl],
    checkoutExpirySeconds: config.payments.checkoutExpirySeconds,
    log,
    analytics,
    referrals: referralRewards,
  });
  const refunds = new PurchaseRefundsService({ db: database.db, ledger, queue, payments });
  const pipeline = new ShootPipelineService({
    db: database.db,
    jobs: jobs.service,
    bus: jobs.bus,
    training: training.service,
    generation,
    refunds: inject.purchaseRefunds ?? refunds,
    mailer: auth.mailer,
    webUrl: config.auth.webUrl,
    log,
  });
  const shootPipeline: ShootPipeline = inject.shootPipeline ?? pipeline;
  delivery.pipeline = shootPipeline;
  const reviews = new ReviewsService(database.db);
  const trainingSets = new TrainingSetsService({
    db: database.db,
    storage,
    maxBytes: config.uploads.maxBytes,
    maxPixels: config.uploads.maxPixels,
    heicMaxPixels: config.uploads.heicMaxPixels,
    quotaBytes: config.limits.uploadQuotaBytes,
  });
  const products = {
    refunds,
    pipeline,
    service: new ProductsService({
      db: database.db,
      products: config.products,
      models: config.models,
      trainerVendor: config.providers.trainer,
      ledger,
      payments,
      reviews,
      trainingSets,
      pipeline: shootPipeline,
      started: shootStarted,
      storage,
      webUrl: config.auth.webUrl,
    }),
  };
  const services = {
    vendors: {
      breaker,
      service: new VendorsService({
        breaker,
        catalogue: models,
        settings: config.providers.breaker,
        isOperator: (userId) => auth.users.isOperator(userId),
      }),
    },
    ledger,
    payments,
    reviews,
    products,
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
    jobs,
    generation,
    safety: { text: textScreener },
    training,
    images,
    videos,
    tools,
    trainingSets,
    onboarding: new OnboardingService(database.db, trainingSets),
    referralRewards,
    referrals: new ReferralsService({
      db: database.db,
      settings: config.referrals,
      webUrl: config.auth.webUrl,
      addressSecret: fileUrlSecret,
    }),
    webhooks: {
      // The container's clock, so tests can move past a failed key fetch's pause.
      fal: createFalWebhookVerifier(config, { now: () => auth.clock.now() }),
      replicate: createReplicateWebhookVerifier(config),
    },
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
