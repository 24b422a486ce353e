import { existsSync, readFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { domainToASCII } from 'node:url';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { catalogueProblem, loadCatalogue, type ModelEntry } from './adapters/providers/catalogue.ts';
import { comfyCatalogueProblem } from './adapters/providers/comfyui/workflows.ts';
import type { S3Settings } from './adapters/storage/index.ts';
import { canonicalEmail, canonicalEmailDomain, EMAIL_PROBLEMS } from './modules/auth/email-address.ts';
import { parseEncryptionKey } from './modules/auth/key-encryption.ts';
import {
  loadProducts,
  productsProblem,
  type CreditPackProduct,
  type Product,
} from './modules/products/product-catalogue.ts';
import { loadSafetyPolicy, safetyPolicyProblem, type SafetyPolicy } from './modules/safety/policy.ts';

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
    /**
     * How long kept-alive connections stay open after a shutdown starts, so a request a client sends on
     * one just then is answered (with Connection: close) rather than reset. Part of SHUTDOWN_TIMEOUT_MS.
     */
    SHUTDOWN_LINGER_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
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
    /** 32 random bytes (base64 or hex) that encrypt the signing keys at rest; required in production. */
    AUTH_KEYS_ENCRYPTION_KEY: z.string().min(1).optional(),
    /** Earlier encryption keys, comma-separated: they only decrypt, and start-up re-encrypts with the current one. */
    AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS: z.string().min(1).optional(),
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
    /** Passkeys: the WebAuthn relying-party id (a domain; defaults to WEB_URL's host) and the name people see. */
    WEBAUTHN_RP_ID: z
      .string()
      .regex(/^[a-z0-9.-]+$/i, 'WEBAUTHN_RP_ID must be a domain name')
      .optional(),
    WEBAUTHN_RP_NAME: z.string().min(1).max(100).default('Lumina'),
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
    // Google Workspaces (id google-workspaces): only accounts of the allowed hosted domain(s) (`hd`).
    GOOGLE_WORKSPACES_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_WORKSPACES_CLIENT_SECRET: z.string().min(1).optional(),
    GOOGLE_WORKSPACES_HD: z
      .string()
      .regex(
        /^(\*|[a-z0-9.-]+(\s*,\s*[a-z0-9.-]+)*)$/i,
        'must be * or a comma list of domains, e.g. example.com,example.org',
      )
      .optional(),
    GOOGLE_WORKSPACES_ISSUER: z.url().default('https://accounts.google.com'),
    OIDC_PROVIDERS_JSON: z.string().min(2).optional(),
    // "Sign in with Lumina": the relying parties of our own OpenID provider (modules/auth/oauth2-provider.ts).
    OAUTH_CLIENTS_JSON: z.string().min(2).optional(),
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
    // The Microsoft identity platform's authority host; the issuer is `<authority>/<tenant id>/v2.0`.
    ACTIVE_DIRECTORY_AUTHORITY_URL: z.url().default('https://login.microsoftonline.com'),
    LINKEDIN_CLIENT_ID: z.string().min(1).optional(),
    LINKEDIN_CLIENT_SECRET: z.string().min(1).optional(),
    LINKEDIN_ISSUER: z.url().default('https://www.linkedin.com/oauth'),
    APPLE_CLIENT_ID: z.string().min(1).optional(),
    APPLE_TEAM_ID: z.string().min(1).optional(),
    APPLE_KEY_ID: z.string().min(1).optional(),
    APPLE_PRIVATE_KEY: z.string().min(1).optional(),
    APPLE_ISSUER: z.url().default('https://appleid.apple.com'),
    GITHUB_CLIENT_ID: z.string().min(1).optional(),
    GITHUB_CLIENT_SECRET: z.string().min(1).optional(),
    GITHUB_URL: z.url().default('https://github.com'),
    GITHUB_API_URL: z.url().default('https://api.github.com'),
    DISCORD_CLIENT_ID: z.string().min(1).optional(),
    DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
    DISCORD_URL: z.url().default('https://discord.com'),
    DISCORD_API_URL: z.url().default('https://discord.com/api'),
    BITBUCKET_CLIENT_ID: z.string().min(1).optional(),
    BITBUCKET_CLIENT_SECRET: z.string().min(1).optional(),
    BITBUCKET_URL: z.url().default('https://bitbucket.org'),
    BITBUCKET_API_URL: z.url().default('https://api.bitbucket.org'),
    FACEBOOK_CLIENT_ID: z.string().min(1).optional(),
    FACEBOOK_CLIENT_SECRET: z.string().min(1).optional(),
    FACEBOOK_URL: z.url().default('https://www.facebook.com'),
    FACEBOOK_GRAPH_URL: z.url().default('https://graph.facebook.com'),
    TWITTER_CLIENT_ID: z.string().min(1).optional(),
    TWITTER_CLIENT_SECRET: z.string().min(1).optional(),
    // A SAML identity provider (modules/auth/saml.*): offered when SAML_IDP_ENTRY_POINT is set.
    SAML_IDP_ENTRY_POINT: z.url().optional(),
    /** C2PA content credentials: the signing certificate chain (leaf first) and its EC key, PEM or a file path. */
    C2PA_SIGNING_CERT: z.string().min(1).optional(),
    C2PA_SIGNING_KEY: z.string().min(1).optional(),
    SAML_IDP_CERT: z.string().min(1).optional(),
    SAML_IDP_CERT_FILE: z.string().min(1).optional(),
    SAML_IDP_ISSUER: z.string().min(1).max(1024).optional(),
    SAML_SP_ENTITY_ID: z.string().min(1).max(1024).optional(),
    SAML_PROVIDER_NAME: z.string().min(1).max(64).default('Single sign-on'),
    SAML_SP_PRIVATE_KEY: z.string().min(1).optional(),
    SAML_SP_CERT: z.string().min(1).optional(),
    SAML_EMAIL_VERIFIED: bool.default(false),
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
    /** The operator's own ComfyUI server (adapters/providers/comfyui); its models are unavailable without it. */
    COMFYUI_URL: z.url().optional(),
    /** More ComfyUI workflows (`<name>.json`, API format with named slots) beside the built-in ones. */
    COMFYUI_WORKFLOWS_DIR: z.string().min(1).optional(),
    /** ComfyUI's models/loras folder as this server sees it: trained LoRAs are copied there once. */
    COMFYUI_LORAS_DIR: z.string().min(1).optional(),
    /** The operator's own AUTOMATIC1111 / Forge server started with `--api` (adapters/providers/a1111). */
    A1111_URL: z
      .url()
      .refine(
        (u) => !/^[a-z]+:\/\/[^/]*@/i.test(u),
        'must not contain a user or password; put them in A1111_AUTH',
      )
      .optional(),
    /** `user:pass` of the server's `--api-auth`, sent as HTTP Basic. A secret: never logged. */
    A1111_AUTH: z
      .string()
      .regex(/^[^:]+:.+$/, 'must be user:password, as given to --api-auth')
      .optional(),
    /** OpenAI Images (adapters/providers/openai). Without a key its models are unavailable. */
    OPENAI_API_KEY: z.string().min(1).optional(),
    /** API base including `/v1` (a proxy, or a fake in tests). Default https://api.openai.com/v1. */
    OPENAI_BASE_URL: z.url().optional(),
    /** The trainer POST /api/train_model uses (modules/training); its vendor needs its key. */
    TRAINER: z.enum(['local', 'fal', 'replicate']).default('local'),
    PROVIDER_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
    /** How often fal/Replicate adapters poll a submitted request's status (webhooks usually win). */
    PROVIDER_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
    /** Temporary failures in a row after which a vendor is skipped (its circuit breaker opens). */
    VENDOR_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
    /** How long an open breaker skips its vendor before one job may try it again (half-open). */
    VENDOR_BREAKER_COOLDOWN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    // Generation (modules/generation, modules/images).
    GENERATION_TIMEOUT_SECONDS: z.coerce.number().int().min(2).max(86_400).default(900),
    /** Retries of a generation after a transient failure or a dead worker, before failing and refunding. */
    GENERATION_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(3),
    /** First retry delay; later ones back off exponentially. 0 retries at once (tests). */
    GENERATION_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    WEBHOOK_BASE_URL: z.url().optional(),
    /** Operators' addresses, in the form sign-in stores them (look-alikes refused here too). */
    ADMIN_EMAILS: csv
      .transform((list, ctx) =>
        list.map((value) => {
          const address = canonicalEmail(value);
          if (address.ok) return address.email;
          ctx.addIssue({ code: 'custom', message: `"${value}" ${EMAIL_PROBLEMS[address.reason]}` });
          return value;
        }),
      )
      .default([]),
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
    /**
     * Days a referral's rewards stay pending (not spendable) after the first payment; a refund or
     * dispute within them cancels the rewards. 0 pays at once (and leaves no time for the card check).
     */
    REFERRAL_SETTLE_DAYS: z.coerce.number().int().min(0).max(180).default(14),
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
     * Of those, how many one person may have waiting; beyond it their upload is refused with 429 and
     * Retry-After, so one account cannot fill the queue and turn everyone else away.
     */
    IMAGE_DECODE_QUEUE_PER_PERSON: z.coerce.number().int().min(1).max(1000).default(2),
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
    // Content safety (modules/safety): the policy over the strict built-in one, and vendor screening.
    SAFETY_POLICY_FILE: z.string().min(1).optional(),
    /** Also screen text with OpenAI's moderation endpoint (needs OPENAI_API_KEY); the built-in screen always runs. */
    SAFETY_OPENAI_MODERATION: z.enum(['on', 'off']).default('off'),
  })
  .superRefine((env, ctx) => {
    if (env.SAFETY_POLICY_FILE) {
      const problem = safetyPolicyProblem(env.SAFETY_POLICY_FILE);
      if (problem) ctx.addIssue({ code: 'custom', path: ['SAFETY_POLICY_FILE'], message: problem });
    }
    if (env.SAFETY_OPENAI_MODERATION === 'on' && !env.OPENAI_API_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['SAFETY_OPENAI_MODERATION'],
        message: 'needs OPENAI_API_KEY: the moderation endpoint is called with it',
      });
    }
    if (env.SHUTDOWN_LINGER_MS >= env.SHUTDOWN_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['SHUTDOWN_LINGER_MS'],
        message: 'must be less than SHUTDOWN_TIMEOUT_MS (the linger is part of it)',
      });
    }
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
    if (env.OAUTH_CLIENTS_JSON) {
      const problem = oauthClientsProblem(env.OAUTH_CLIENTS_JSON);
      if (problem) ctx.addIssue({ code: 'custom', path: ['OAUTH_CLIENTS_JSON'], message: problem });
    }
    if (env.OIDC_PROVIDERS_JSON) {
      const problem = providersProblem(env.OIDC_PROVIDERS_JSON);
      if (problem) ctx.addIssue({ code: 'custom', path: ['OIDC_PROVIDERS_JSON'], message: problem });
    }
    // Provider hosts change only for tests (local fakes) or self-hosted instances: https in production.
    const hosts: [string, string][] = [
      ['GOOGLE', 'GOOGLE_ISSUER'],
      ['GOOGLE_WORKSPACES', 'GOOGLE_WORKSPACES_ISSUER'],
      ['APPLE', 'APPLE_ISSUER'],
      ['LINKEDIN', 'LINKEDIN_ISSUER'],
      ['ACTIVE_DIRECTORY', 'ACTIVE_DIRECTORY_AUTHORITY_URL'],
      ['DISCORD', 'DISCORD_URL'],
      ['DISCORD', 'DISCORD_API_URL'],
      ['BITBUCKET', 'BITBUCKET_URL'],
      ['BITBUCKET', 'BITBUCKET_API_URL'],
      ['FACEBOOK', 'FACEBOOK_URL'],
      ['FACEBOOK', 'FACEBOOK_GRAPH_URL'],
    ];
    for (const [provider, key] of hosts) {
      const value = (env as Record<string, unknown>)[key];
      const used = (env as Record<string, unknown>)[`${provider}_CLIENT_ID`];
      if (
        env.NODE_ENV === 'production' &&
        used &&
        typeof value === 'string' &&
        !value.startsWith('https://')
      ) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'must be https when NODE_ENV=production' });
      }
    }
    // A provider's client id needs its other settings (Apple signs its client secret with the team key).
    const needs: [string, string[]][] = [
      ['GOOGLE', ['GOOGLE_CLIENT_SECRET']],
      ['GOOGLE_WORKSPACES', ['GOOGLE_WORKSPACES_CLIENT_SECRET', 'GOOGLE_WORKSPACES_HD']],
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
    for (const [key, message] of samlProblems(env)) ctx.addIssue({ code: 'custom', path: [key], message });
    if (env.MODELS_JSON || env.MODELS_FILE) {
      const problem = catalogueProblem({ json: env.MODELS_JSON, file: env.MODELS_FILE });
      if (problem)
        ctx.addIssue({
          code: 'custom',
          path: [env.MODELS_FILE ? 'MODELS_FILE' : 'MODELS_JSON'],
          message: problem,
        });
    }
    {
      // The ComfyUI workflows (built-in and the operator's) and the catalogue entries naming them.
      let models: ModelEntry[] = [];
      try {
        models = loadCatalogue({ json: env.MODELS_JSON, file: env.MODELS_FILE });
      } catch {
        // Reported above.
      }
      const problem = comfyCatalogueProblem(models, env.COMFYUI_WORKFLOWS_DIR);
      if (problem) {
        ctx.addIssue({
          code: 'custom',
          path: [
            env.COMFYUI_WORKFLOWS_DIR
              ? 'COMFYUI_WORKFLOWS_DIR'
              : env.MODELS_FILE
                ? 'MODELS_FILE'
                : 'MODELS_JSON',
          ],
          message: problem,
        });
      }
    }
    if (env.TENANTS_JSON) {
      const problem = tenantsProblem(env.TENANTS_JSON);
      if (problem) ctx.addIssue({ code: 'custom', path: ['TENANTS_JSON'], message: problem });
    }
    for (const [key, message] of c2paProblems(env)) ctx.addIssue({ code: 'custom', path: [key], message });
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
    if (env.AUTH_KEYS_ENCRYPTION_KEY) {
      const problem = parseEncryptionKey(env.AUTH_KEYS_ENCRYPTION_KEY);
      if (typeof problem === 'string')
        ctx.addIssue({ code: 'custom', path: ['AUTH_KEYS_ENCRYPTION_KEY'], message: problem });
    } else if (env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['AUTH_KEYS_ENCRYPTION_KEY'],
        message:
          'is required when NODE_ENV=production (it encrypts the signing keys in the database; make one with: openssl rand -base64 32)',
      });
    }
    if (env.AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS) {
      if (!env.AUTH_KEYS_ENCRYPTION_KEY) {
        ctx.addIssue({
          code: 'custom',
          path: ['AUTH_KEYS_ENCRYPTION_KEY'],
          message: 'is required when AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS is set',
        });
      }
      const keys = env.AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS.split(',').map((k) => k.trim());
      if (keys.some((k) => typeof parseEncryptionKey(k) === 'string')) {
        ctx.addIssue({
          code: 'custom',
          path: ['AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS'],
          message: 'must be a comma-separated list of 32-byte keys written as base64 or hex',
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
  /**
   * The operator's C2PA signing certificate chain and key (PEM); unset outside production means a
   * development certificate made at first start in `dataDir/c2pa`.
   */
  c2pa?: { certificatePem: string; privateKeyPem: string };
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
  /** How long kept-alive connections may still bring a request once shutdown starts (SHUTDOWN_LINGER_MS). */
  shutdownLingerMs: number;
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
  /** Content safety (modules/safety): the policy in force, and whether OpenAI's moderation also screens text. */
  safety: { policy: SafetyPolicy; openaiModeration: boolean };
  /** The referral programme (modules/referrals). */
  referrals: {
    rewardCredits: number;
    welcomeCredits: number;
    bindWindowDays: number;
    monthlyCap: number;
    minReferrerAgeHours: number;
    settleDays: number;
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
    /** How many of the waiting ones may be one person's. */
    decodeQueuePerPerson: number;
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
  /** Each vendor's circuit breaker (modules/vendors): failures in a row that open it, and its cool-down. */
  breaker: { failures: number; cooldownSeconds: number };
  fal: { key?: string; baseUrl?: string; webhookJwksUrl: string };
  replicate: { apiToken?: string; baseUrl: string; webhookSecret?: string; trainingOwner?: string };
  /** The operator's ComfyUI server; `url` unset means its models are unavailable. */
  comfyui: { url?: string; workflowsDir?: string; lorasDir?: string };
  /** AUTOMATIC1111 / Forge: `url` unset means its models are unavailable; `auth` is `user:pass` (Basic). */
  a1111?: { url?: string; auth?: string };
  /** OpenAI Images: `apiKey` unset means its models are unavailable. */
  openai?: { apiKey?: string; baseUrl?: string };
  /** The vendor POST /api/train_model trains on (TRAINER). */
  trainer: 'local' | 'fal' | 'replicate';
}

export interface TenantConfig {
  /** Factor ids offered as first factors, e.g. ["otp-email","link-email","thirdparty"]. */
  firstFactors?: string[];
  /** Third-party provider ids enabled for the tenant (only configured providers are offered). */
  thirdPartyProviders?: string[];
  /**
   * Email domains whose people may use the tenant (claim `st-t-dmns`), lowercase, exact match: `acme.com`
   * does not admit `eng.acme.com` (list it too). Unset: every domain.
   */
  allowedDomains?: string[];
}

export interface AuthConfig {
  /** Where the web app lives (magic links, cookie SameSite); PUBLIC_URL when unset. */
  webUrl: string;
  accessTokenLifetimeSeconds: number;
  refreshTokenLifetimeMinutes: number;
  /** A rotated-out refresh token still works this long if its successor was never used (lost responses). */
  refreshTokenReuseGraceSeconds: number;
  jwtKeyRotationHours: number;
  /**
   * The keys that encrypt the signing keys at rest (AUTH_KEYS_ENCRYPTION_KEY, then the _PREVIOUS list,
   * which only decrypt). Unset (development only): keys are stored unencrypted.
   */
  keysEncryption?: { current: Buffer; previous: Buffer[] };
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
  /** Passkeys (WebAuthn): the relying party and the page origins a passkey ceremony may come from. */
  webauthn: { rpId: string; rpName: string; origins: string[] };
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
  /** Relying parties of "Sign in with Lumina" (our OpenID provider); from OAUTH_CLIENTS_JSON. */
  oauthClients: OAuthClientConfig[];
  /** The SAML identity provider, when SAML_IDP_ENTRY_POINT is set (modules/auth/saml.service.ts). */
  saml?: SamlProviderConfig;
}

/** One relying party of our OpenID provider (OAUTH_CLIENTS_JSON). */
export interface OAuthClientConfig {
  clientId: string;
  /** Absent for a public client (a browser or native app), which authenticates with PKCE alone. */
  clientSecret?: string;
  name: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  logoUri?: string;
  clientUri?: string;
  tosUri?: string;
  policyUri?: string;
  /** First-party clients are the operator's own apps: no consent step. Only they are accepted today. */
  firstParty: boolean;
  scopes: string[];
  grantTypes: ('authorization_code' | 'refresh_token')[];
}

export type OAuth2ProviderId = 'github' | 'discord' | 'bitbucket' | 'facebook' | 'twitter';

export interface OAuth2ProviderConfig {
  id: OAuth2ProviderId;
  clientId: string;
  clientSecret: string;
  /**
   * The provider's web (authorise) and API hosts: GitHub Enterprise Server, or a local fake in tests.
   * Set for GitHub, Discord, Bitbucket and Facebook (X keeps its fixed hosts).
   */
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
  /** How the token request authenticates the client: secret in the body (default) or HTTP Basic. */
  clientAuth?: 'post' | 'basic';
  /** Google Workspaces: the hosted domains whose accounts may sign in (`*` = any Workspace domain). */
  hostedDomains?: string[];
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

const redirectUri = z.url().refine((u) => !u.includes('#'), 'a redirect URI has no fragment');
const OAuthClientsSchema = z
  .array(
    z.object({
      client_id: z.string().regex(/^[A-Za-z0-9._~-]{1,128}$/, 'client_id is 1-128 letters, digits or ._~-'),
      client_secret: z.string().min(32, 'client_secret must be at least 32 characters').optional(),
      name: z.string().min(1).max(200),
      redirect_uris: z.array(redirectUri).min(1, 'needs at least one redirect_uri'),
      post_logout_redirect_uris: z.array(redirectUri).default([]),
      logo_uri: z.url().optional(),
      client_uri: z.url().optional(),
      tos_uri: z.url().optional(),
      policy_uri: z.url().optional(),
      first_party: z.boolean().default(false),
      scopes: z
        .array(z.enum(['openid', 'email', 'offline_access']))
        .default(['openid', 'email', 'offline_access']),
      grant_types: z
        .array(z.enum(['authorization_code', 'refresh_token']))
        .default(['authorization_code', 'refresh_token']),
    }),
  )
  .superRefine((clients, ctx) => {
    const seen = new Set<string>();
    clients.forEach((c, i) => {
      if (seen.has(c.client_id)) {
        ctx.addIssue({ code: 'custom', path: [i, 'client_id'], message: 'appears twice' });
      }
      seen.add(c.client_id);
      if (!c.first_party) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'first_party'],
          message:
            'only first-party clients are supported (there is no consent screen yet); set "first_party": true',
        });
      }
    });
  });

function oauthClientsProblem(json: string): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return 'must be JSON, e.g. [{"client_id":"app","name":"App","redirect_uris":["https://app.example/cb"],"first_party":true}]';
  }
  const parsed = OAuthClientsSchema.safeParse(raw);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const index = typeof issue.path[0] === 'number' ? issue.path[0] : undefined;
  const id =
    index !== undefined && Array.isArray(raw)
      ? (raw[index] as { client_id?: unknown } | undefined)?.client_id
      : undefined;
  const client =
    index === undefined ? '' : `client ${typeof id === 'string' ? `"${id}"` : `#${index + 1}`}: `;
  const field = issue.path.slice(1).join('.');
  // Messages that already start with the field's name are not prefixed again.
  const named = field && !issue.message.startsWith(field) ? `${field} ` : '';
  return `${client}${named}${issue.message}`;
}

function oauthClientsFrom(env: Env): OAuthClientConfig[] {
  if (!env.OAUTH_CLIENTS_JSON) return [];
  return OAuthClientsSchema.parse(JSON.parse(env.OAUTH_CLIENTS_JSON)).map((c) => ({
    clientId: c.client_id,
    clientSecret: c.client_secret,
    name: c.name,
    redirectUris: c.redirect_uris,
    postLogoutRedirectUris: c.post_logout_redirect_uris,
    logoUri: c.logo_uri,
    clientUri: c.client_uri,
    tosUri: c.tos_uri,
    policyUri: c.policy_uri,
    firstParty: c.first_party,
    scopes: c.scopes,
    grantTypes: c.grant_types,
  }));
}

/** A DNS name in its ASCII (punycode) form: letters, digits and inner dashes, dot-separated. */
const DOMAIN_NAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const TenantsSchema = z.record(
  z.string().regex(/^[a-z0-9-]{1,64}$/, 'tenant ids are lowercase letters, digits and dashes'),
  z.object({
    firstFactors: z.array(z.string().min(1)).min(1).optional(),
    thirdPartyProviders: z.array(z.string().min(1)).optional(),
    allowedDomains: z
      .array(
        z
          .string()
          // The stored addresses' form (modules/auth/email-address.ts), so `xn--` and Unicode spellings match.
          .transform((d, ctx) => {
            const domain = canonicalEmailDomain(d.trim());
            if (!domain || !DOMAIN_NAME.test(domainToASCII(domain))) {
              ctx.addIssue({
                code: 'custom',
                message: 'allowedDomains are email domains such as "acme.com" (no "@", no wildcards)',
              });
              return z.NEVER;
            }
            return domain;
          }),
      )
      .min(1, 'allowedDomains needs at least one domain (leave it out to allow every domain)')
      .optional(),
  }),
);

function tenantsProblem(json: string): string | undefined {
  try {
    const parsed = TenantsSchema.safeParse(JSON.parse(json));
    return parsed.success ? undefined : `invalid tenant settings: ${parsed.error.issues[0]?.message}`;
  } catch {
    return 'must be JSON, e.g. {"acme":{"firstFactors":["otp-email"],"allowedDomains":["acme.com"]}}';
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
  if (env.GOOGLE_WORKSPACES_CLIENT_ID) {
    const hostedDomains = env
      .GOOGLE_WORKSPACES_HD!.split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean);
    list.push({
      id: 'google-workspaces',
      name: 'Google Workspaces',
      issuer: env.GOOGLE_WORKSPACES_ISSUER,
      clientId: env.GOOGLE_WORKSPACES_CLIENT_ID,
      clientSecret: env.GOOGLE_WORKSPACES_CLIENT_SECRET,
      scopes: OIDC_SCOPES,
      // Google's account chooser takes one domain or `*`; the id_token's `hd` claim is what is enforced.
      authParams: {
        access_type: 'offline',
        include_granted_scopes: 'true',
        hd: hostedDomains.length === 1 ? hostedDomains[0]! : '*',
      },
      hostedDomains,
    });
  }
  if (env.APPLE_CLIENT_ID) {
    list.push({
      id: 'apple',
      name: 'Apple',
      issuer: env.APPLE_ISSUER,
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
      issuer: env.LINKEDIN_ISSUER,
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
      // An Okta web app's token endpoint authenticates with its default, client_secret_basic.
      clientAuth: 'basic',
    });
  }
  if (env.ACTIVE_DIRECTORY_CLIENT_ID) {
    list.push({
      id: 'active-directory',
      name: 'Active Directory',
      // One directory (tenant) per setting: its v2.0 issuer is what the id_token's `iss` says.
      issuer: `${env.ACTIVE_DIRECTORY_AUTHORITY_URL.replace(/\/$/, '')}/${env.ACTIVE_DIRECTORY_TENANT_ID}/v2.0`,
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
  const hosts: Partial<Record<OAuth2ProviderId, [string, string]>> = {
    github: [env.GITHUB_URL, env.GITHUB_API_URL],
    discord: [env.DISCORD_URL, env.DISCORD_API_URL],
    bitbucket: [env.BITBUCKET_URL, env.BITBUCKET_API_URL],
    facebook: [env.FACEBOOK_URL, env.FACEBOOK_GRAPH_URL],
  };
  return pairs.flatMap(([id, clientId, clientSecret]) =>
    clientId && clientSecret
      ? [
          {
            id,
            clientId,
            clientSecret,
            ...(hosts[id] && {
              webUrl: hosts[id][0].replace(/\/$/, ''),
              apiUrl: hosts[id][1].replace(/\/$/, ''),
            }),
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

/**
 * Settings whose value is never echoed in a start-up error: secrets, URLs (they may carry credentials) and
 * the JSON settings that hold client secrets (OAUTH_CLIENTS_JSON: our OpenID provider's clients;
 * OIDC_PROVIDERS_JSON: the third-party OpenID providers' clientSecret).
 */
const SECRET_SETTING =
  /SECRET|KEY|TOKEN|PASSWORD|URL|^A1111_AUTH$|^OAUTH_CLIENTS_JSON$|^OIDC_PROVIDERS_JSON$/;

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
        const shown = value === undefined || SECRET_SETTING.test(name) ? '' : ` (got "${value}")`;
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
    c2pa:
      env.C2PA_SIGNING_CERT && env.C2PA_SIGNING_KEY
        ? {
            certificatePem: pemOrFile(env.C2PA_SIGNING_CERT)!,
            privateKeyPem: pemOrFile(env.C2PA_SIGNING_KEY)!,
          }
        : undefined,
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
    shutdownLingerMs: env.SHUTDOWN_LINGER_MS,
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
      keysEncryption: env.AUTH_KEYS_ENCRYPTION_KEY
        ? {
            current: parseEncryptionKey(env.AUTH_KEYS_ENCRYPTION_KEY) as Buffer,
            previous: (env.AUTH_KEYS_ENCRYPTION_KEY_PREVIOUS ?? '')
              .split(',')
              .map((k) => k.trim())
              .filter(Boolean)
              .map((k) => parseEncryptionKey(k) as Buffer),
          }
        : undefined,
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
      webauthn: webauthnSettings(env),
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
      oauthClients: oauthClientsFrom(env),
      saml: samlFrom(env),
    },
    providers: {
      timeoutSeconds: env.PROVIDER_TIMEOUT_SECONDS,
      pollIntervalMs: env.PROVIDER_POLL_INTERVAL_MS,
      breaker: {
        failures: env.VENDOR_BREAKER_FAILURES,
        cooldownSeconds: env.VENDOR_BREAKER_COOLDOWN_SECONDS,
      },
      fal: { key: env.FAL_KEY, baseUrl: env.FAL_BASE_URL, webhookJwksUrl: env.FAL_WEBHOOK_JWKS_URL },
      replicate: {
        apiToken: env.REPLICATE_API_TOKEN,
        baseUrl: env.REPLICATE_BASE_URL.replace(/\/$/, ''),
        webhookSecret: env.REPLICATE_WEBHOOK_SECRET,
        trainingOwner: env.REPLICATE_TRAINING_OWNER,
      },
      comfyui: {
        url: env.COMFYUI_URL,
        workflowsDir: env.COMFYUI_WORKFLOWS_DIR,
        lorasDir: env.COMFYUI_LORAS_DIR,
      },
      a1111: { url: env.A1111_URL?.replace(/\/$/, ''), auth: env.A1111_AUTH },
      openai: { apiKey: env.OPENAI_API_KEY, baseUrl: env.OPENAI_BASE_URL?.replace(/\/$/, '') },
      trainer: env.TRAINER,
    },
    models: loadCatalogue({ json: env.MODELS_JSON, file: env.MODELS_FILE }),
    products,
    safety: {
      policy: loadSafetyPolicy(env.SAFETY_POLICY_FILE),
      openaiModeration: env.SAFETY_OPENAI_MODERATION === 'on',
    },
    referrals: {
      rewardCredits: env.REFERRAL_REWARD_CREDITS,
      welcomeCredits: env.REFERRAL_WELCOME_CREDITS,
      bindWindowDays: env.REFERRAL_BIND_WINDOW_DAYS,
      monthlyCap: env.REFERRAL_MONTHLY_CAP,
      minReferrerAgeHours: env.REFERRAL_MIN_REFERRER_AGE_HOURS,
      settleDays: env.REFERRAL_SETTLE_DAYS,
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
      adminEmails: env.ADMIN_EMAILS,
      welcomeCredits: env.WELCOME_CREDITS,
    },
    uploads: {
      maxBytes: env.UPLOAD_MAX_BYTES,
      maxPixels: env.UPLOAD_MAX_PIXELS,
      heicMaxPixels: Math.min(env.UPLOAD_HEIC_MAX_PIXELS, env.UPLOAD_MAX_PIXELS),
      decodeConcurrency: env.IMAGE_DECODE_CONCURRENCY,
      decodeQueue: env.IMAGE_DECODE_QUEUE,
      decodeQueuePerPerson: env.IMAGE_DECODE_QUEUE_PER_PERSON,
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

/** The WebAuthn relying party: WEBAUTHN_RP_ID or WEB_URL's host; ceremonies from WEB_URL's or PUBLIC_URL's origin. */
function webauthnSettings(env: {
  WEB_URL?: string;
  PUBLIC_URL?: string;
  PORT: number;
  WEBAUTHN_RP_ID?: string;
  WEBAUTHN_RP_NAME: string;
}) {
  const web = new URL(env.WEB_URL ?? env.PUBLIC_URL ?? `http://localhost:${env.PORT}`);
  const api = new URL(env.PUBLIC_URL ?? `http://localhost:${env.PORT}`);
  return {
    rpId: (env.WEBAUTHN_RP_ID ?? web.hostname).toLowerCase(),
    rpName: env.WEBAUTHN_RP_NAME,
    origins: [...new Set([web.origin, api.origin])],
  };
}

export interface SamlProviderConfig {
  /** The provider id the web SDK sees (`/auth/loginmethods`, `/auth/callback/saml`). */
  id: 'saml';
  /** The sign-in button's label. */
  name: string;
  /** The IdP's single sign-on URL (HTTP-Redirect binding). */
  entryPoint: string;
  /** The IdP's signing certificate (PEM). */
  idpCert: string;
  /** The IdP's entity id; when set, a response from another issuer is refused. */
  idpIssuer?: string;
  /** Our entity id (the audience assertions must name). */
  spEntityId: string;
  /** Our assertion consumer service, where the IdP posts its response. */
  acsUrl: string;
  /** Signs AuthnRequests and is published in our metadata, when both are set. */
  spSigning?: { privateKey: string; cert: string };
  /** Whether the IdP's email addresses count as verified (they may then link to an existing user). */
  emailVerified: boolean;
}

/** A PEM block from a setting: `\n` escapes allowed on one line, a bare base64 body wrapped. */
export function pemFrom(value: string, label: 'CERTIFICATE' | 'PRIVATE KEY'): string {
  const text = value.replace(/\\n/g, '\n').trim();
  if (text.includes('-----BEGIN')) return `${text}\n`;
  const body = text.replace(/\s+/g, '');
  return `-----BEGIN ${label}-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

/** A PEM setting given inline (`\\n` escapes allowed) or as the path of a file holding it; undefined when neither. */
function pemOrFile(value: string): string | undefined {
  if (value.includes('-----BEGIN')) return `${value.replace(/\\n/g, '\n').trim()}\n`;
  try {
    const text = readFileSync(value, 'utf8');
    return text.includes('-----BEGIN') ? text : undefined;
  } catch {
    return undefined;
  }
}

function c2paProblems(env: Env): [string, string][] {
  const cert = env.C2PA_SIGNING_CERT;
  const key = env.C2PA_SIGNING_KEY;
  if (!cert || !key) {
    if (cert || key) {
      const missing = cert ? 'C2PA_SIGNING_KEY' : 'C2PA_SIGNING_CERT';
      return [[missing, `is required when ${cert ? 'C2PA_SIGNING_CERT' : 'C2PA_SIGNING_KEY'} is set`]];
    }
    if (env.NODE_ENV === 'production')
      return [
        [
          'C2PA_SIGNING_CERT',
          'is required when NODE_ENV=production, with C2PA_SIGNING_KEY (the certificate chain and EC P-256 key that sign the content credentials of every output; PEM or a file path)',
        ],
      ];
    return [];
  }
  const problems: [string, string][] = [];
  const certPem = pemOrFile(cert);
  let leaf: X509Certificate | undefined;
  if (!certPem)
    problems.push(['C2PA_SIGNING_CERT', 'must be a PEM certificate chain or the path of a file holding one']);
  else
    try {
      leaf = new X509Certificate(certPem);
    } catch {
      problems.push(['C2PA_SIGNING_CERT', 'must be a PEM certificate chain (leaf first)']);
    }
  const keyPem = pemOrFile(key);
  let privateKey: KeyObject | undefined;
  try {
    privateKey = keyPem ? createPrivateKey(keyPem) : undefined;
  } catch {
    privateKey = undefined;
  }
  if (
    privateKey?.asymmetricKeyType !== 'ec' ||
    privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1'
  ) {
    problems.push([
      'C2PA_SIGNING_KEY',
      'must be an EC (P-256) private key in PEM or the path of a file holding one',
    ]);
  } else if (leaf) {
    // A key that is not the leaf certificate's would sign every output with credentials that fail.
    const spki = (k: KeyObject) => k.export({ format: 'der', type: 'spki' });
    if (!spki(createPublicKey(privateKey)).equals(spki(leaf.publicKey))) {
      problems.push([
        'C2PA_SIGNING_KEY',
        'is not the key of the first (leaf) certificate in C2PA_SIGNING_CERT',
      ]);
    }
  }
  return problems;
}

function samlProblems(env: Env): [string, string][] {
  const problems: [string, string][] = [];
  if (!env.SAML_IDP_ENTRY_POINT) {
    for (const key of [
      'SAML_IDP_CERT',
      'SAML_IDP_CERT_FILE',
      'SAML_IDP_ISSUER',
      'SAML_SP_ENTITY_ID',
      'SAML_SP_PRIVATE_KEY',
      'SAML_SP_CERT',
    ] as const) {
      if (env[key]) problems.push(['SAML_IDP_ENTRY_POINT', `is required when ${key} is set`]);
    }
    return problems.slice(0, 1);
  }
  const certKey = env.SAML_IDP_CERT_FILE ? 'SAML_IDP_CERT_FILE' : 'SAML_IDP_CERT';
  if (env.SAML_IDP_CERT && env.SAML_IDP_CERT_FILE) {
    problems.push(['SAML_IDP_CERT_FILE', 'must not be set together with SAML_IDP_CERT (choose one)']);
  } else if (!env.SAML_IDP_CERT && !env.SAML_IDP_CERT_FILE) {
    problems.push(['SAML_IDP_CERT', 'is required when SAML_IDP_ENTRY_POINT is set (or SAML_IDP_CERT_FILE)']);
  } else {
    try {
      new X509Certificate(samlIdpCert(env)!);
    } catch {
      problems.push([certKey, 'must be the IdP signing certificate (PEM or base64 DER)']);
    }
  }
  if (Boolean(env.SAML_SP_PRIVATE_KEY) !== Boolean(env.SAML_SP_CERT)) {
    const missing = env.SAML_SP_PRIVATE_KEY ? 'SAML_SP_CERT' : 'SAML_SP_PRIVATE_KEY';
    const other = env.SAML_SP_PRIVATE_KEY ? 'SAML_SP_PRIVATE_KEY' : 'SAML_SP_CERT';
    problems.push([missing, `is required when ${other} is set`]);
  } else if (env.SAML_SP_PRIVATE_KEY && env.SAML_SP_CERT) {
    try {
      createPrivateKey(pemFrom(env.SAML_SP_PRIVATE_KEY, 'PRIVATE KEY'));
    } catch {
      problems.push(['SAML_SP_PRIVATE_KEY', 'must be a PEM private key']);
    }
    try {
      new X509Certificate(pemFrom(env.SAML_SP_CERT, 'CERTIFICATE'));
    } catch {
      problems.push(['SAML_SP_CERT', 'must be a PEM certificate']);
    }
  }
  return problems;
}

/** The IdP certificate as PEM, from SAML_IDP_CERT or the file SAML_IDP_CERT_FILE names (unreadable: undefined). */
function samlIdpCert(env: Env): string | undefined {
  if (env.SAML_IDP_CERT) return pemFrom(env.SAML_IDP_CERT, 'CERTIFICATE');
  if (!env.SAML_IDP_CERT_FILE) return undefined;
  try {
    return pemFrom(readFileSync(env.SAML_IDP_CERT_FILE, 'utf8'), 'CERTIFICATE');
  } catch {
    return undefined;
  }
}

/** The SAML identity provider set in the environment (checked by samlProblems), if any. */
function samlFrom(env: Env): SamlProviderConfig | undefined {
  const idpCert = samlIdpCert(env);
  if (!env.SAML_IDP_ENTRY_POINT || !idpCert) return undefined;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    id: 'saml',
    name: env.SAML_PROVIDER_NAME,
    entryPoint: env.SAML_IDP_ENTRY_POINT,
    idpCert,
    idpIssuer: env.SAML_IDP_ISSUER,
    spEntityId: env.SAML_SP_ENTITY_ID ?? `${publicUrl}/auth/saml/metadata`,
    acsUrl: `${publicUrl}/auth/saml/acs`,
    spSigning:
      env.SAML_SP_PRIVATE_KEY && env.SAML_SP_CERT
        ? {
            privateKey: pemFrom(env.SAML_SP_PRIVATE_KEY, 'PRIVATE KEY'),
            cert: pemFrom(env.SAML_SP_CERT, 'CERTIFICATE'),
          }
        : undefined,
    emailVerified: env.SAML_EMAIL_VERIFIED,
  };
}
