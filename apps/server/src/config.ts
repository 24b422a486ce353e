import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { catalogueProblem, loadCatalogue, type ModelEntry } from './adapters/providers/catalogue.ts';
import type { S3Settings } from './adapters/storage/index.ts';
import {
  loadProducts,
  productsProblem,
  type CreditPackProduct,
  type Product,
} from './modules/products/product-catalogue.ts';

/**
 * The only reader of process.env. Every setting is parsed once at boot; a bad or missing value stops
 * start-up with a message naming it (all problems at once, not one per restart).
 * `.env.example` lists every setting with its default; keep the two in step.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const csv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce
      .number({ error: 'must be a port number from 0 to 65535' })
      .int('must be a port number from 0 to 65535')
      .min(0, 'must be a port number from 0 to 65535')
      .max(65535, 'must be a port number from 0 to 65535')
      .default(3000),
    /** Unset: 127.0.0.1 outside production (not reachable from other machines), 0.0.0.0 in production. */
    HOST: z.string().min(1).optional(),
    /**
     * Which proxies' X-Forwarded-For / -Proto headers to believe: off (default: the socket's address is
     * the client), a hop count, or the proxies' addresses. Believing any client's header lets one
     * machine pose as many, so per-IP limits would mean nothing.
     */
    TRUST_PROXY: z
      .string()
      .transform((value, ctx) => {
        const parsed = parseTrustProxy(value);
        if (typeof parsed === 'string') {
          ctx.addIssue({ code: 'custom', message: parsed });
          return z.NEVER;
        }
        return parsed.value;
      })
      .default(false),
    PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Two info lines per request (received, completed); off keeps error logs, which carry the request id. */
    LOG_REQUESTS: bool.default(true),
    ROLES: csv.pipe(z.array(z.enum(['api', 'worker'])).min(1)).default(['api', 'worker']),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.url().optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    QUEUE_POLL_INTERVAL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
    /** How often pg-boss archives finished jobs and expires ones past their hard time limit. */
    QUEUE_MAINTENANCE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    /**
     * How often a running job says it is alive. A job silent for 4 beats (its worker died) is retried,
     * or failed and refunded when out of retries; every process looks for such jobs once a beat.
     */
    JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** Redis for limits shared between API processes (rate-limit counters); PostgreSQL is used without it. */
    REDIS_URL: z.url().optional(),
    // Product API limits (modules/limits). Per minute, fixed windows; tests lower them.
    RATE_LIMIT_WRITE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
    RATE_LIMIT_IP_WRITE_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
    RATE_LIMIT_PREVIEW_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
    SSE_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1000).default(8),
    UPLOAD_QUOTA_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(Number.MAX_SAFE_INTEGER)
      .default(1024 * 1024 * 1024),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
    // Gallery listings kept in memory until a change is announced (modules/images/listing-cache.ts).
    GALLERY_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
    GALLERY_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(32),
    WEB_DIST_DIR: z.string().min(1).default('apps/web/dist'),
    CORS_ORIGINS: csv.default([]),
    FILE_URL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_BUCKET: z.string().min(3).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    // Sign-in layer (modules/auth). See .env.example and docs/decisions.md (Sign-in layer).
    WEB_URL: z.url().optional(),
    ACCESS_TOKEN_LIFETIME_SECONDS: z.coerce.number().int().min(5).max(86_400).default(3600),
    REFRESH_TOKEN_LIFETIME_MINUTES: z.coerce.number().int().min(1).max(525_600).default(144_000),
    REFRESH_TOKEN_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
    JWT_KEY_ROTATION_HOURS: z.coerce.number().min(0.01).max(8760).default(168),
    SESSION_COOKIE_DOMAIN: z.string().min(1).optional(),
    SESSION_COOKIE_SAME_SITE: z.enum(['auto', 'lax', 'strict', 'none']).default('auto'),
    SESSION_ANTI_CSRF: z.enum(['auto', 'none', 'via-custom-header', 'via-token']).default('auto'),
    PASSWORDLESS_CONTACT_METHOD: z.enum(['EMAIL', 'PHONE', 'EMAIL_OR_PHONE']).default('EMAIL'),
    PASSWORDLESS_FLOW_TYPE: z
      .enum(['USER_INPUT_CODE', 'MAGIC_LINK', 'USER_INPUT_CODE_AND_MAGIC_LINK'])
      .default('USER_INPUT_CODE_AND_MAGIC_LINK'),
    PASSWORDLESS_CODE_LIFETIME_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
    PASSWORDLESS_MAX_CODE_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
    SMTP_URL: z.url().optional(),
    MAIL_FROM: z.string().min(3).default('Lumina <no-reply@lumina.local>'),
    SMS_WEBHOOK_URL: z.url().optional(),
    EMAIL_VERIFICATION: z.enum(['off', 'optional', 'required']).default('off'),
    TENANTS_JSON: z.string().min(2).optional(),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).max(100_000).default(60),
    AUTH_RATE_LIMIT_PER_CONTACT: z.coerce.number().int().min(1).max(10_000).default(10),
    AUTH_CODE_GUESSES_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(100),
    AUTH_CODE_BACKOFF_AFTER: z.coerce.number().int().min(0).max(10_000).default(5),
    AUTH_CODE_BACKOFF_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(2),
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
    OIDC_PROVIDERS_JSON: z.string().min(2).optional(),
    // More third-party providers (S14). Each is offered when its client id (and secret) are set.
    GITLAB_CLIENT_ID: z.string().min(1).optional(),
    GITLAB_CLIENT_SECRET: z.string().min(1).optional(),
    GITLAB_ISSUER: z.url().default('https://gitlab.com'),
    OKTA_CLIENT_ID: z.string().min(1).optional(),
    OKTA_CLIENT_SECRET: z.string().min(1).optional(),
    OKTA_ISSUER: z.url().optional(),
    ACTIVE_DIRECTORY_CLIENT_ID: z.string().min(1).optional(),
    ACTIVE_DIRECTORY_CLIENT_SECRET: z.string().min(1).optional(),
    ACTIVE_DIRECTORY_TENANT_ID: z
      .string()
      .regex(/^[\w.-]{1,100}$/)
      .optional(),
    LINKEDIN_CLIENT_ID: z.string().min(1).optional(),
    LINKEDIN_CLIENT_SECRET: z.string().min(1).optional(),
    APPLE_CLIENT_ID: z.string().min(1).optional(),
    APPLE_TEAM_ID: z.string().min(1).optional(),
    APPLE_KEY_ID: z.string().min(1).optional(),
    APPLE_PRIVATE_KEY: z.string().min(1).optional(),
    GITHUB_CLIENT_ID: z.string().min(1).optional(),
    GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
    GITHUB_URL: z.url().default('https://github.com'),
    GITHUB_API_URL: z.url().default('https://api.github.com'),
    DISCORD_CLIENT_ID: z.string().min(1).optional(),
    DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
    BITBUCKET_CLIENT_ID: z.string().min(1).optional(),
    BITBUCKET_CLIENT_SECRET: z.string().min(1).optional(),
    FACEBOOK_CLIENT_ID: z.string().min(1).optional(),
    FACEBOOK_CLIENT_SECRET: z.string().min(1).optional(),
    TWITTER_CLIENT_ID: z.string().min(1).optional(),
    TWITTER_CLIENT_SECRET: z.string().min(1).optional(),
    // Image providers (adapters/providers/fal, adapters/providers/replicate). A vendor without a key is unavailable.
    FAL_KEY: z.string().min(1).optional(),
    /** Test-only: sends the fal client's queue/storage calls to this base instead of fal's hosts (a fake). */
    FAL_BASE_URL: z.url().optional(),
    FAL_WEBHOOK_JWKS_URL: z.url().default('https://rest.alpha.fal.ai/.well-known/jwks.json'),
    REPLICATE_API_TOKEN: z.string().min(1).optional(),
    REPLICATE_BASE_URL: z.url().default('https://api.replicate.com/v1'),
    REPLICATE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, 'must start with whsec_')
      .optional(),
    /** The Replicate account (user or organisation) trained models are created under: `<owner>/lumina-<id>`. */
    REPLICATE_TRAINING_OWNER: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/i, 'must be a Replicate user or organisation name')
      .optional(),
    /** The trainer POST /api/train_model uses (modules/training); its vendor needs its key. */
    TRAINER: z.enum(['local', 'fal', 'replicate']).default('local'),
    PROVIDER_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
    /** How often fal/Replicate adapters poll a submitted request's status (webhooks usually win). */
    PROVIDER_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
    // Generation (modules/generation, modules/images).
    GENERATION_TIMEOUT_SECONDS: z.coerce.number().int().min(2).max(86_400).default(900),
    /** Retries of a generation after a transient failure or a dead worker, before failing and refunding. */
    GENERATION_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(3),
    /** First retry delay; later ones back off exponentially. 0 retries at once (tests). */
    GENERATION_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    WEBHOOK_BASE_URL: z.url().optional(),
    ADMIN_EMAILS: csv.default([]),
    WELCOME_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(50),
    // The referral programme (modules/referrals).
    /** Credits the referrer gets when a person they referred makes a first payment. */
    REFERRAL_REWARD_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(100),
    /** Credits the referred person gets with that first payment. */
    REFERRAL_WELCOME_CREDITS: z.coerce.number().int().min(0).max(1_000_000).default(50),
    /** A person may be bound to a referrer only within this many days of signing up. */
    REFERRAL_BIND_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(7),
    /** Rewarded referrals per referrer per calendar month (UTC); more still bind but earn nothing. */
    REFERRAL_MONTHLY_CAP: z.coerce.number().int().min(0).max(10_000).default(20),
    /** A referrer's account must be this old (hours) when a referral completes to earn its reward. */
    REFERRAL_MIN_REFERRER_AGE_HOURS: z.coerce.number().int().min(0).max(8760).default(24),
    /** Tracking calls per person per minute, and code validations per address per minute. */
    REFERRAL_TRACK_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
    REFERRAL_VALIDATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
    // Uploads and image tools (modules/uploads, modules/tools).
    /** Largest accepted upload, in bytes (each file of a multipart form). */
    UPLOAD_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(200 * 1024 * 1024)
      .default(20 * 1024 * 1024),
    /** Largest accepted image in pixels (width × height): decompression bombs stop here, before decoding. */
    UPLOAD_MAX_PIXELS: z.coerce.number().int().min(10_000).max(268_402_689).default(64_000_000),
    /**
     * Largest accepted HEIC/HEIF (HEVC) image in pixels. Lower than UPLOAD_MAX_PIXELS because its
     * decoder (libheif in WebAssembly) needs ~9 bytes of memory per pixel where sharp streams
     * (docs/decisions.md, "Bounded image decoding"). 50 MP still takes a 48 MP phone photo.
     */
    UPLOAD_HEIC_MAX_PIXELS: z.coerce.number().int().min(10_000).max(268_402_689).default(50_000_000),
    /** Images decoded at once (uploads, previews, tool inputs). Default: half the cores, at least 1. */
    IMAGE_DECODE_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, Math.floor(availableParallelism() / 2))),
    /** Uploads that may wait for a decode slot; beyond this one is refused with 503 and Retry-After. */
    IMAGE_DECODE_QUEUE: z.coerce.number().int().min(0).max(1000).default(16),
    /**
     * Whether edit_image may fetch an image_url on a private or loopback address. Off in production so
     * the server cannot be used to reach internal services; tests and local setups turn it on.
     */
    IMAGE_URL_ALLOW_PRIVATE: bool.default(false),
    /** An ffmpeg binary to use instead of the one installed from npm (@ffmpeg-installer/ffmpeg). */
    FFMPEG_PATH: z.string().min(1).optional(),
    // Model catalogue override (adapters/providers/catalogue.ts): inline JSON or a JSON file path.
    MODELS_JSON: z.string().min(2).optional(),
    MODELS_FILE: z.string().min(1).optional(),
    // Payments (modules/payments). Without STRIPE_SECRET_KEY a development checkout is used (never in production).
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, 'must start with whsec_')
      .optional(),
    /** Test-only: the Stripe API host (bare hostname), port and protocol, to point the SDK at a local fake. */
    STRIPE_API_HOST: z.string().min(1).optional(),
    STRIPE_API_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    STRIPE_API_PROTOCOL: z.enum(['http', 'https']).optional(),
    /** Credit packages on sale, as JSON (see .env.example); the built-in three when unset. */
    CREDIT_PACKAGES_JSON: z.string().min(2).optional(),
    /** Products on sale (photo shoots and credit packages), as JSON or a JSON file; the built-in set when unset. */
    PRODUCTS_JSON: z.string().min(2).optional(),
    PRODUCTS_FILE: z.string().min(1).optional(),
    /** An unpaid checkout's lifetime; Stripe accepts 30 minutes to 24 hours for a Session's expires_at. */
    CHECKOUT_EXPIRY_SECONDS: z.coerce.number().int().min(1800).max(86_400).default(86_400),
    // Public examples (modules/examples).
    EXAMPLES_SEED: z.enum(['on', 'off']).default('on'),
    EXAMPLES_FILE: z.string().min(1).optional(),
    // Legal pages (modules/legal): Markdown files provided by the operator.
    TERMS_FILE: z.string().min(1).optional(),
    PRIVACY_FILE: z.string().min(1).optional(),
    // Product analytics (modules/analytics): PostHog.
    POSTHOG_KEY: z.string().min(1).optional(),
    POSTHOG_HOST: z.url({ protocol: /^https?$/ }).default('https://us.i.posthog.com'),
    POSTHOG_CAPTURE_PROMPTS: bool.default(false),
  })
  .superRefine((env, ctx) => {
    if (env.S3_BUCKET) {
      for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[key])
          ctx.addIssue({ code: 'custom', path: [key], message: 'is required when S3_BUCKET is set' });
      }
    }
    if (
      env.PASSWORDLESS_CONTACT_METHOD !== 'EMAIL' &&
      env.NODE_ENV === 'production' &&
      !env.SMS_WEBHOOK_URL
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['PASSWORDLESS_CONTACT_METHOD'],
        message: 'PHONE and EMAIL_OR_PHONE need an SMS sender (SMS_WEBHOOK_URL) when NODE_ENV=production',
      });
    }
    if (env.OIDC_PROVIDERS_JSON) {
      const problem = providersProblem(env.OIDC_PROVIDERS_JSON);
      if (problem) ctx.addIssue({ code: 'custom', path: ['OIDC_PROVIDERS_JSON'], message: problem });
    }
    if (env.NODE_ENV === 'production' && env.GOOGLE_CLIENT_ID && !env.GOOGLE_ISSUER.startsWith('https://')) {
      ctx.addIssue({
        code: 'custom',
        path: ['GOOGLE_ISSUER'],
        message: 'must be https when NODE_ENV=production',
      });
    }
    // A provider's client id needs its other settings (Apple signs its client secret with the team key).
    const needs: [string, string[]][] = [
      ['GOOGLE', ['GOOGLE_CLIENT_SECRET']],
      ['GITLAB', ['GITLAB_CLIENT_SECRET']],
      ['OKTA', ['OKTA_CLIENT_SECRET', 'OKTA_ISSUER']],
      ['ACTIVE_DIRECTORY', ['ACTIVE_DIRECTORY_CLIENT_SECRET', 'ACTIVE_DIRECTORY_TENANT_ID']],
      ['LINKEDIN', ['LINKEDIN_CLIENT_SECRET']],
      ['APPLE', ['APPLE_TEAM_ID', 'APPLE_KEY_ID', 'APPLE_PRIVATE_KEY']],
      ...(['GITHUB', 'DISCORD', 'BITBUCKET', 'FACEBOOK', 'TWITTER'] as const).map((p): [string, string[]] => [
        p,
        [`${p}_CLIENT_SECRET`],
      ]),
    ];
    const settings = env as Record<string, unknown>;
    for (const [provider, keys] of needs) {
      if (!settings[`${provider}_CLIENT_ID`]) continue;
      for (const key of keys.filter((k) => !settings[k])) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `is required when ${provider}_CLIENT_ID is set`,
        });
      }
    }
    if (env.MODELS_JSON || env.MODELS_FILE) {
      const problem = catalogueProblem({ json: env.MODELS_JSON, file: env.MODELS_FILE });
      if (problem)
        ctx.addIssue({
          code: 'custom',
          path: [env.MODELS_FILE ? 'MODELS_FILE' : 'MODELS_JSON'],
          message: problem,
        });
    }
    if (env.TENANTS_JSON) {
      const problem = tenantsProblem(env.TENANTS_JSON);
      if (problem) ctx.addIssue({ code: 'custom', path: ['TENANTS_JSON'], message: problem });
    }
    if (env.NODE_ENV === 'production' && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message: 'is required when NODE_ENV=production (the development checkout is refused there)',
      });
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_WEBHOOK_SECRET'],
        message: 'is required when STRIPE_SECRET_KEY is set',
      });
    }
    if (env.CREDIT_PACKAGES_JSON) {
      const problem = creditPackagesProblem(env.CREDIT_PACKAGES_JSON);
      if (problem) ctx.addIssue({ code: 'custom', path: ['CREDIT_PACKAGES_JSON'], message: problem });
    }
    if (env.PRODUCTS_JSON || env.PRODUCTS_FILE) {
      const name = env.PRODUCTS_FILE && !env.PRODUCTS_JSON ? 'PRODUCTS_FILE' : 'PRODUCTS_JSON';
      const problem = productsProblem({ json: env.PRODUCTS_JSON, file: env.PRODUCTS_FILE });
      if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
      if (env.CREDIT_PACKAGES_JSON) {
        ctx.addIssue({
          code: 'custom',
          path: ['CREDIT_PACKAGES_JSON'],
          message: `cannot be used with ${name}: list credit packages there as products of kind "credits"`,
        });
      }
    }
    if (env.NODE_ENV === 'production' && !env.FILE_URL_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['FILE_URL_SECRET'],
        message: 'is required when NODE_ENV=production',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  /** Per-request info lines (Fastify's "incoming request" / "request completed"). */
  logRequests: boolean;
  /** Gallery listings served from memory (0 seconds: off) and the memory they may use. */
  galleryCache: { seconds: number; maxBytes: number };
  roles: ReadonlyArray<'api' | 'worker'>;
  dataDir: string;
  database: {
    url?: string;
    poolSize: number;
    /** PGlite's folder when url is unset; `memory://` in tests. */ embeddedDir: string;
  };
  queue: {
    pollIntervalSeconds: number;
    concurrency: number;
    /** How often finished jobs are archived and over-time ones expired (pg-boss maintenance). */
    maintenanceIntervalSeconds: number;
    /** A running job's heartbeat; silent for 4 beats, it counts as abandoned (a dead worker). */
    heartbeatSeconds: number;
  };
  shutdownTimeoutMs: number;
  /** Fastify's trustProxy: false, a hop count, or the trusted proxies' addresses (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Redis for shared rate-limit counters (REDIS_URL); PostgreSQL or memory without it. */
  redisUrl?: string;
  /** Product API limits (modules/limits). */
  limits: LimitsConfig;
  webDistDir: string;
  corsOrigins: readonly string[];
  /** Signs short-lived file URLs; generated per data dir outside production (see secrets.ts). */
  fileUrlSecret?: string;
  s3?: S3Settings;
  /** The sign-in layer (modules/auth). */
  auth: AuthConfig;
  /** fal.ai and Replicate (adapters/providers). */
  providers: ProvidersConfig;
  /** The model catalogue (text-to-image and tool models): built-in models with MODELS_JSON / MODELS_FILE applied. */
  models: readonly ModelEntry[];
  /**
   * Products on sale (modules/products): PRODUCTS_JSON / PRODUCTS_FILE, or the built-in shoots followed
   * by the credit packages. The first is the onboarding product.
   */
  products: readonly Product[];
  /** The referral programme (modules/referrals). */
  referrals: {
    rewardCredits: number;
    welcomeCredits: number;
    bindWindowDays: number;
    monthlyCap: number;
    minReferrerAgeHours: number;
    trackPerMinute: number;
    validatePerMinute: number;
  };
  /** Credit packages (the products of kind "credits") and Stripe (modules/payments). */
  payments: PaymentsConfig;
  generation: {
    /** How long one job may run before it counts as stalled (a dead worker) and is retried. */
    timeoutSeconds: number;
    /** Retries after a transient failure or stall, and the first retry's delay (then exponential). */
    retryLimit: number;
    retryDelaySeconds: number;
    /** Public base URL providers can reach for webhooks; unset means polling only. */
    webhookBaseUrl?: string;
    /** Lower-cased emails of operators who may unpublish any example. */
    adminEmails: readonly string[];
    /** Credits every new user gets once, at first sign-in. */
    welcomeCredits: number;
  };
  uploads: {
    maxBytes: number;
    maxPixels: number;
    /** The smaller pixel limit of HEIC/HEIF images (costlier to decode). */
    heicMaxPixels: number;
    /** Images decoded at once, and how many more may wait (adapters/media/decode-slots.ts). */
    decodeConcurrency: number;
    decodeQueue: number;
    /** Whether a fetched image_url may resolve to a private or loopback address. */
    allowPrivateUrls: boolean;
  };
  /** The ffmpeg binary for video work (animate, posters). */
  ffmpegPath?: string;
  /** Public examples seeded on first start (modules/examples). */
  examples: { seed: boolean; file?: string };
  /** Operator-provided legal texts (Markdown files); unset means the default text. */
  legal: { termsFile?: string; privacyFile?: string };
  /** PostHog product analytics; undefined means none. */
  analytics?: { key: string; host: string; capturePrompts: boolean };
}

export interface CreditPackage {
  id: string;
  name: string;
  credits: number;
  /** Integer minor units of `currency`. */
  priceCents: number;
  /** ISO 4217, lower case. */
  currency: string;
  stripePriceId?: string;
  badge?: string;
}

export interface PaymentsConfig {
  packages: readonly CreditPackage[];
  /** How long an unpaid checkout stays open, in seconds. */
  checkoutExpirySeconds: number;
  /** Unset: development checkout (refused when NODE_ENV=production). */
  stripe?: {
    secretKey: string;
    webhookSecret: string;
    host?: string;
    port?: number;
    protocol?: 'http' | 'https';
  };
}

const CreditPackagesSchema = z
  .array(
    z.object({
      id: z.string().regex(/^[a-z0-9_-]{1,64}$/, 'package ids are lowercase letters, digits, _ and -'),
      name: z.string().min(1).max(100),
      credits: z.int().min(1),
      priceCents: z.int().min(50, 'priceCents is whole minor units (cents), at least 50'),
      currency: z
        .string()
        .regex(/^[a-z]{3}$/, 'currency is a lower-case ISO 4217 code')
        .default('usd'),
      stripePriceId: z.string().min(1).optional(),
      badge: z.string().min(1).max(40).optional(),
    }),
  )
  .min(1)
  .refine((list) => new Set(list.map((p) => p.id)).size === list.length, 'package ids must be unique');

export const DEFAULT_CREDIT_PACKAGES: readonly CreditPackage[] = [
  { id: 'starter', name: 'Starter', credits: 100, priceCents: 500, currency: 'usd' },
  { id: 'creator', name: 'Creator', credits: 500, priceCents: 2000, currency: 'usd', badge: 'best value' },
  { id: 'studio', name: 'Studio', credits: 1500, priceCents: 5000, currency: 'usd' },
];

/** CREDIT_PACKAGES_JSON's packages as products, and products of kind "credits" as payments' packages. */
function fromCreditPackage(p: CreditPackage): CreditPackProduct {
  return {
    id: p.id,
    kind: 'credits',
    name: p.name,
    description: `${p.credits.toLocaleString('en')} credits for generating, editing and training.`,
    covers: [],
    price: { cents: p.priceCents, currency: p.currency },
    credits: p.credits,
    ...(p.stripePriceId ? { stripePriceId: p.stripePriceId } : {}),
    ...(p.badge ? { badge: p.badge } : {}),
  };
}

function toCreditPackage(p: CreditPackProduct): CreditPackage {
  return {
    id: p.id,
    name: p.name,
    credits: p.credits,
    priceCents: p.price.cents,
    currency: p.price.currency,
    ...(p.stripePriceId ? { stripePriceId: p.stripePriceId } : {}),
    ...(p.badge ? { badge: p.badge } : {}),
  };
}

function creditPackagesProblem(json: string): string | undefined {
  try {
    const parsed = CreditPackagesSchema.safeParse(JSON.parse(json));
    return parsed.success ? undefined : `invalid credit packages: ${parsed.error.issues[0]?.message}`;
  } catch {
    return 'must be JSON, e.g. [{"id":"starter","name":"Starter","credits":100,"priceCents":500,"currency":"usd"}]';
  }
}

export type TrustProxy = false | number | string[];

export interface LimitsConfig {
  /** Write requests (and progress streams opened) per person per minute. */
  writesPerMinute: number;
  /** Write requests per client address per minute (several people may share one). */
  ipWritesPerMinute: number;
  /** convert-preview calls per person per minute: each decodes a whole image. */
  previewsPerMinute: number;
  /** Progress streams one person may have open at once. */
  streamsPerUser: number;
  /** Total bytes of one person's stored uploads. */
  uploadQuotaBytes: number;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `off`/`false`, a hop count (`1` = the one proxy in front of us), or comma-separated proxy
 * addresses / CIDR ranges (and proxy-addr's names loopback, linklocal, uniquelocal). `true` (believe
 * every client) is refused on purpose. Returns a message when the value is not one of these.
 */
export function parseTrustProxy(value: string): { value: TrustProxy } | string {
  const text = value.trim().toLowerCase();
  if (['off', 'false', 'no', '0'].includes(text)) return { value: false };
  if (/^\d+$/.test(text)) return { value: Number(text) };
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((item) => {
    if (PROXY_NAMES.has(item)) return false;
    const [address, prefix, ...rest] = item.split('/');
    const version = isIP(address ?? '');
    if (version === 0 || rest.length > 0) return true;
    if (prefix === undefined) return false;
    return !/^\d+$/.test(prefix) || Number(prefix) > (version === 4 ? 32 : 128);
  });
  if (list.length === 0 || bad !== undefined) {
    return `must be off, a hop count (e.g. 1) or proxy addresses (e.g. 10.0.0.1,10.0.0.0/8)${bad ? `; "${bad}" is none of these` : ''}`;
  }
  return { value: list };
}

/** Hosted image providers; `key`/`apiToken` unset means that vendor's models are unavailable. */
export interface ProvidersConfig {
  /** Overall deadline for one provider request (submit to downloaded output). */
  timeoutSeconds: number;
  /** Status poll interval of the hosted adapters. */
  pollIntervalMs: number;
  fal: { key?: string; baseUrl?: string; webhookJwksUrl: string };
  replicate: { apiToken?: string; baseUrl: string; webhookSecret?: string; trainingOwner?: string };
  /** The vendor POST /api/train_model trains on (TRAINER). */
  trainer: 'local' | 'fal' | 'replicate';
}

export interface TenantConfig {
  /** Factor ids offered as first factors, e.g. ["otp-email","link-email","thirdparty"]. */
  firstFactors?: string[];
  /** Third-party provider ids enabled for the tenant (only configured providers are offered). */
  thirdPartyProviders?: string[];
}

export interface AuthConfig {
  /** Where the web app lives (magic links, cookie SameSite); PUBLIC_URL when unset. */
  webUrl: string;
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeMinutes: number;
  /** A rotated-out refresh token still works this long if its successor was never used (lost responses). */
  refreshTokenReuseGraceSeconds: number;
  jwtKeyRotationHours: number;
  cookieDomain?: string;
  cookieSameSite: 'auto' | 'lax' | 'strict' | 'none';
  antiCsrf: 'auto' | 'none' | 'via-custom-header' | 'via-token';
  passwordless: {
    contactMethod: 'EMAIL' | 'PHONE' | 'EMAIL_OR_PHONE';
    flowType: 'USER_INPUT_CODE' | 'MAGIC_LINK' | 'USER_INPUT_CODE_AND_MAGIC_LINK';
    codeLifetimeSeconds: number;
    maxCodeAttempts: number;
  };
  smtpUrl?: string;
  mailFrom: string;
  smsWebhookUrl?: string;
  emailVerification: 'off' | 'optional' | 'required';
  /** Extra tenants by id (`public` always exists); from TENANTS_JSON. */
  tenants: Record<string, TenantConfig>;
  rateLimit: {
    windowSeconds: number;
    perIp: number;
    perContact: number;
    /** Wrong sign-in codes an account may receive in 24 hours. */
    codeGuessesPerDay: number;
    /** Wrong codes in a row before each further one doubles the wait (from backoffBaseSeconds). */
    backoffAfter: number;
    backoffBaseSeconds: number;
  };
  /** Third-party sign-in providers (OpenID Connect with PKCE); only configured ones are offered. */
  oidcProviders: OidcProviderConfig[];
  /** Third-party providers that speak plain OAuth 2 (no id_token): profile and email come from their APIs. */
  oauth2Providers: OAuth2ProviderConfig[];
}

export type OAuth2ProviderId = 'github' | 'discord' | 'bitbucket' | 'facebook' | 'twitter';

export interface OAuth2ProviderConfig {
  id: OAuth2ProviderId;
  clientId: string;
  clientSecret: string;
  /** GitHub only: the web and API hosts (GitHub Enterprise Server, or a local fake in tests). */
  webUrl?: string;
  apiUrl?: string;
}

export interface OidcProviderConfig {
  /** The SuperTokens provider id the web app uses (`google`, `okta`, `gitlab`, `active-directory`, ...). */
  id: string;
  name: string;
  /** OpenID issuer; its `/.well-known/openid-configuration` is discovered on first use. */
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string[];
  /** Send PKCE (S256); on unless the provider is known to refuse it. */
  pkce?: boolean;
  /** Extra authorisation-URL parameters (e.g. Apple's `response_mode=form_post`). */
  authParams?: Record<string, string>;
  /** Apple: the client secret is an ES256 JWT signed with this key (team id, key id, PKCS#8 PEM). */
  appleKey?: { teamId: string; keyId: string; privateKey: string };
}

const ProvidersSchema = z.array(
  z.object({
    id: z.string().regex(/^[a-z0-9-]{1,64}$/, 'provider ids are lowercase letters, digits and dashes'),
    name: z.string().min(1),
    issuer: z.url(),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1).optional(),
    scopes: z.array(z.string().min(1)).default(['openid', 'email', 'profile']),
  }),
);

function providersProblem(json: string): string | undefined {
  try {
    const parsed = ProvidersSchema.safeParse(JSON.parse(json));
    return parsed.success ? undefined : `invalid provider settings: ${parsed.error.issues[0]?.message}`;
  } catch {
    return 'must be JSON, e.g. [{"id":"okta","name":"Okta","issuer":"https://x.okta.com","clientId":"..."}]';
  }
}

const TenantsSchema = z.record(
  z.string().regex(/^[a-z0-9-]{1,64}$/, 'tenant ids are lowercase letters, digits and dashes'),
  z.object({
    firstFactors: z.array(z.string().min(1)).min(1).optional(),
    thirdPartyProviders: z.array(z.string().min(1)).optional(),
  }),
);

function tenantsProblem(json: string): string | undefined {
  try {
    const parsed = TenantsSchema.safeParse(JSON.parse(json));
    return parsed.success ? undefined : `invalid tenant settings: ${parsed.error.issues[0]?.message}`;
  } catch {
    return 'must be JSON, e.g. {"acme":{"firstFactors":["otp-email"]}}';
  }
}

const OIDC_SCOPES = ['openid', 'email', 'profile'];

/** The OpenID Connect providers set in the environment, in the order the sign-in card lists them. */
function oidcProvidersFrom(env: Env): OidcProviderConfig[] {
  const list: OidcProviderConfig[] = [];
  if (env.GOOGLE_CLIENT_ID) {
    list.push({
      id: 'google',
      name: 'Google',
      issuer: env.GOOGLE_ISSUER,
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      scopes: OIDC_SCOPES,
      authParams: { access_type: 'offline', include_granted_scopes: 'true' },
    });
  }
  if (env.APPLE_CLIENT_ID) {
    list.push({
      id: 'apple',
      name: 'Apple',
      issuer: 'https://appleid.apple.com',
      clientId: env.APPLE_CLIENT_ID,
      // Apple posts the code back (form_post) when email is asked for, and documents no PKCE for the web.
      scopes: ['openid', 'email'],
      pkce: false,
      authParams: { response_mode: 'form_post' },
      appleKey: {
        teamId: env.APPLE_TEAM_ID!,
        keyId: env.APPLE_KEY_ID!,
        // .env files often hold the PEM on one line with literal \n.
        privateKey: env.APPLE_PRIVATE_KEY!.replace(/\\n/g, '\n'),
      },
    });
  }
  if (env.GITLAB_CLIENT_ID) {
    list.push({
      id: 'gitlab',
      name: 'GitLab',
      issuer: env.GITLAB_ISSUER,
      clientId: env.GITLAB_CLIENT_ID,
      clientSecret: env.GITLAB_CLIENT_SECRET,
      scopes: ['openid', 'email', 'profile'],
    });
  }
  if (env.LINKEDIN_CLIENT_ID) {
    list.push({
      id: 'linkedin',
      name: 'LinkedIn',
      issuer: 'https://www.linkedin.com/oauth',
      clientId: env.LINKEDIN_CLIENT_ID,
      clientSecret: env.LINKEDIN_CLIENT_SECRET,
      scopes: OIDC_SCOPES,
      // LinkedIn's "Sign In with LinkedIn using OpenID Connect" offers PKCE to native apps only.
      pkce: false,
    });
  }
  if (env.OKTA_CLIENT_ID) {
    list.push({
      id: 'okta',
      name: 'Okta',
      issuer: env.OKTA_ISSUER!,
      clientId: env.OKTA_CLIENT_ID,
      clientSecret: env.OKTA_CLIENT_SECRET,
      scopes: OIDC_SCOPES,
    });
  }
  if (env.ACTIVE_DIRECTORY_CLIENT_ID) {
    list.push({
      id: 'active-directory',
      name: 'Active Directory',
      // One directory (tenant) per setting: its v2.0 issuer is what the id_token's `iss` says.
      issuer: `https://login.microsoftonline.com/${env.ACTIVE_DIRECTORY_TENANT_ID}/v2.0`,
      clientId: env.ACTIVE_DIRECTORY_CLIENT_ID,
      clientSecret: env.ACTIVE_DIRECTORY_CLIENT_SECRET,
      scopes: OIDC_SCOPES,
    });
  }
  if (env.OIDC_PROVIDERS_JSON) list.push(...ProvidersSchema.parse(JSON.parse(env.OIDC_PROVIDERS_JSON)));
  return list;
}

/** The plain OAuth 2 providers set in the environment (arctic; see modules/auth/oauth2.providers.ts). */
function oauth2ProvidersFrom(env: Env): OAuth2ProviderConfig[] {
  const pairs: [OAuth2ProviderId, string | undefined, string | undefined][] = [
    ['github', env.GITHUB_CLIENT_ID, env.GITHUB_CLIENT_SECRET],
    ['discord', env.DISCORD_CLIENT_ID, env.DISCORD_CLIENT_SECRET],
    ['bitbucket', env.BITBUCKET_CLIENT_ID, env.BITBUCKET_CLIENT_SECRET],
    ['facebook', env.FACEBOOK_CLIENT_ID, env.FACEBOOK_CLIENT_SECRET],
    ['twitter', env.TWITTER_CLIENT_ID, env.TWITTER_CLIENT_SECRET],
  ];
  return pairs.flatMap(([id, clientId, clientSecret]) =>
    clientId && clientSecret
      ? [
          {
            id,
            clientId,
            clientSecret,
            ...(id === 'github'
              ? {
                  webUrl: env.GITHUB_URL.replace(/\/$/, ''),
                  apiUrl: env.GITHUB_API_URL.replace(/\/$/, ''),
                }
              : {}),
          },
        ]
      : [],
  );
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the given environment (process.env by default) into a frozen Config, or throws ConfigError. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  // Empty strings mean "unset", as in most .env files.
  const raw = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)';
        const value = raw[name];
        const shown =
          value === undefined || /SECRET|KEY|TOKEN|PASSWORD|URL/.test(name) ? '' : ` (got "${value}")`;
        return `${name}: ${issue.message}${shown}`;
      }),
    );
  }
  const env = parsed.data;
  const creditPackages = env.CREDIT_PACKAGES_JSON
    ? CreditPackagesSchema.parse(JSON.parse(env.CREDIT_PACKAGES_JSON))
    : DEFAULT_CREDIT_PACKAGES;
  const products = loadProducts(
    { json: env.PRODUCTS_JSON, file: env.PRODUCTS_FILE },
    creditPackages.map(fromCreditPackage),
  );
  const config: Config = {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    logLevel: env.LOG_LEVEL,
    logRequests: env.LOG_REQUESTS,
    galleryCache: { seconds: env.GALLERY_CACHE_SECONDS, maxBytes: env.GALLERY_CACHE_MAX_MB * 1024 * 1024 },
    roles: env.ROLES,
    dataDir: path.resolve(env.DATA_DIR),
    database: {
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      embeddedDir: path.join(path.resolve(env.DATA_DIR), 'pglite'),
    },
    queue: {
      pollIntervalSeconds: env.QUEUE_POLL_INTERVAL_SECONDS,
      concurrency: env.WORKER_CONCURRENCY,
      maintenanceIntervalSeconds: env.QUEUE_MAINTENANCE_INTERVAL_SECONDS,
      heartbeatSeconds: env.JOB_HEARTBEAT_SECONDS,
    },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    trustProxy: env.TRUST_PROXY,
    redisUrl: env.REDIS_URL,
    limits: {
      writesPerMinute: env.RATE_LIMIT_WRITE_PER_MINUTE,
      ipWritesPerMinute: env.RATE_LIMIT_IP_WRITE_PER_MINUTE,
      previewsPerMinute: env.RATE_LIMIT_PREVIEW_PER_MINUTE,
      streamsPerUser: env.SSE_STREAMS_PER_USER,
      uploadQuotaBytes: env.UPLOAD_QUOTA_BYTES,
    },
    webDistDir: path.resolve(env.WEB_DIST_DIR),
    corsOrigins: env.CORS_ORIGINS,
    fileUrlSecret: env.FILE_URL_SECRET,
    s3: env.S3_BUCKET
      ? {
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          bucket: env.S3_BUCKET,
          accessKeyId: env.S3_ACCESS_KEY_ID!,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
          forcePathStyle: env.S3_FORCE_PATH_STYLE,
        }
      : undefined,
    auth: {
      webUrl: (env.WEB_URL ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
      accessTokenLifetimeSeconds: env.ACCESS_TOKEN_LIFETIME_SECONDS,
      refreshTokenLifetimeMinutes: env.REFRESH_TOKEN_LIFETIME_MINUTES,
      refreshTokenReuseGraceSeconds: env.REFRESH_TOKEN_REUSE_GRACE_SECONDS,
      jwtKeyRotationHours: env.JWT_KEY_ROTATION_HOURS,
      cookieDomain: env.SESSION_COOKIE_DOMAIN,
      cookieSameSite: env.SESSION_COOKIE_SAME_SITE,
      antiCsrf: env.SESSION_ANTI_CSRF,
      passwordless: {
        contactMethod: env.PASSWORDLESS_CONTACT_METHOD,
        flowType: env.PASSWORDLESS_FLOW_TYPE,
        codeLifetimeSeconds: env.PASSWORDLESS_CODE_LIFETIME_SECONDS,
        maxCodeAttempts: env.PASSWORDLESS_MAX_CODE_ATTEMPTS,
      },
      smtpUrl: env.SMTP_URL,
      mailFrom: env.MAIL_FROM,
      smsWebhookUrl: env.SMS_WEBHOOK_URL,
      emailVerification: env.EMAIL_VERIFICATION,
      tenants: env.TENANTS_JSON ? TenantsSchema.parse(JSON.parse(env.TENANTS_JSON)) : {},
      rateLimit: {
        windowSeconds: env.AUTH_RATE_LIMIT_WINDOW_SECONDS,
        perIp: env.AUTH_RATE_LIMIT_PER_IP,
        perContact: env.AUTH_RATE_LIMIT_PER_CONTACT,
        codeGuessesPerDay: env.AUTH_CODE_GUESSES_PER_DAY,
        backoffAfter: env.AUTH_CODE_BACKOFF_AFTER,
        backoffBaseSeconds: env.AUTH_CODE_BACKOFF_BASE_SECONDS,
      },
      oidcProviders: oidcProvidersFrom(env),
      oauth2Providers: oauth2ProvidersFrom(env),
    },
    providers: {
      timeoutSeconds: env.PROVIDER_TIMEOUT_SECONDS,
      pollIntervalMs: env.PROVIDER_POLL_INTERVAL_MS,
      fal: { key: env.FAL_KEY, baseUrl: env.FAL_BASE_URL, webhookJwksUrl: env.FAL_WEBHOOK_JWKS_URL },
      replicate: {
        apiToken: env.REPLICATE_API_TOKEN,
        baseUrl: env.REPLICATE_BASE_URL.replace(/\/$/, ''),
        webhookSecret: env.REPLICATE_WEBHOOK_SECRET,
        trainingOwner: env.REPLICATE_TRAINING_OWNER,
      },
      trainer: env.TRAINER,
    },
    models: loadCatalogue({ json: env.MODELS_JSON, file: env.MODELS_FILE }),
    products,
    referrals: {
      rewardCredits: env.REFERRAL_REWARD_CREDITS,
      welcomeCredits: env.REFERRAL_WELCOME_CREDITS,
      bindWindowDays: env.REFERRAL_BIND_WINDOW_DAYS,
      monthlyCap: env.REFERRAL_MONTHLY_CAP,
      minReferrerAgeHours: env.REFERRAL_MIN_REFERRER_AGE_HOURS,
      trackPerMinute: env.REFERRAL_TRACK_PER_MINUTE,
      validatePerMinute: env.REFERRAL_VALIDATE_PER_MINUTE,
    },
    payments: {
      packages: products.filter((p) => p.kind === 'credits').map(toCreditPackage),
      checkoutExpirySeconds: env.CHECKOUT_EXPIRY_SECONDS,
      stripe: env.STRIPE_SECRET_KEY
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
            host: env.STRIPE_API_HOST,
            port: env.STRIPE_API_PORT,
            protocol: env.STRIPE_API_PROTOCOL,
          }
        : undefined,
    },
    generation: {
      timeoutSeconds: env.GENERATION_TIMEOUT_SECONDS,
      retryLimit: env.GENERATION_RETRY_LIMIT,
      retryDelaySeconds: env.GENERATION_RETRY_DELAY_SECONDS,
      webhookBaseUrl: env.WEBHOOK_BASE_URL?.replace(/\/$/, ''),
      adminEmails: env.ADMIN_EMAILS.map((e) => e.toLowerCase()),
      welcomeCredits: env.WELCOME_CREDITS,
    },
    uploads: {
      maxBytes: env.UPLOAD_MAX_BYTES,
      maxPixels: env.UPLOAD_MAX_PIXELS,
      heicMaxPixels: Math.min(env.UPLOAD_HEIC_MAX_PIXELS, env.UPLOAD_MAX_PIXELS),
      decodeConcurrency: env.IMAGE_DECODE_CONCURRENCY,
      decodeQueue: env.IMAGE_DECODE_QUEUE,
      allowPrivateUrls: env.IMAGE_URL_ALLOW_PRIVATE,
    },
    ffmpegPath: env.FFMPEG_PATH,
    examples: { seed: env.EXAMPLES_SEED === 'on', file: env.EXAMPLES_FILE },
    legal: { termsFile: env.TERMS_FILE, privacyFile: env.PRIVACY_FILE },
    analytics: env.POSTHOG_KEY
      ? {
          key: env.POSTHOG_KEY,
          host: env.POSTHOG_HOST.replace(/\/$/, ''),
          capturePrompts: env.POSTHOG_CAPTURE_PROMPTS,
        }
      : undefined,
    ...overrides,
  };
  return Object.freeze(config);
}

/** Loads `.env` from the working directory when present (Node's own parser; real env vars win). */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
