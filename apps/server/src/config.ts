import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    PUBLIC_URL: z.url().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ROLES: csv.pipe(z.array(z.enum(['api', 'worker'])).min(1)).default(['api', 'worker']),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z.url().optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    QUEUE_POLL_INTERVAL_SECONDS: z.coerce.number().min(0.5).max(60).default(1),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
    WEB_DIST_DIR: z.string().min(1).default('apps/web/dist'),
    CORS_ORIGINS: csv.default([]),
    FILE_URL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    S3_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_BUCKET: z.string().min(3).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.default(false),
    REDIS_URL: z.url().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.S3_BUCKET) {
      for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when S3_BUCKET is set' });
      }
    }
    if (env.NODE_ENV === 'production' && !env.FILE_URL_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['FILE_URL_SECRET'], message: 'is required when NODE_ENV=production' });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  roles: ReadonlyArray<'api' | 'worker'>;
  dataDir: string;
  database: { url?: string; poolSize: number; /** PGlite's folder when url is unset; `memory://` in tests. */ embeddedDir: string };
  queue: { pollIntervalSeconds: number; concurrency: number };
  shutdownTimeoutMs: number;
  webDistDir: string;
  corsOrigins: readonly string[];
  /** Signs short-lived file URLs; generated per data dir outside production (see secrets.ts). */
  fileUrlSecret?: string;
  s3?: {
    endpoint?: string;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
  };
  redisUrl?: string;
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
        const shown = value === undefined || /SECRET|KEY|PASSWORD|URL/.test(name) ? '' : ` (got "${value}")`;
        return `${name}: ${issue.message}${shown}`;
      }),
    );
  }
  const env = parsed.data;
  const config: Config = {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    logLevel: env.LOG_LEVEL,
    roles: env.ROLES,
    dataDir: path.resolve(env.DATA_DIR),
    database: {
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      embeddedDir: path.join(path.resolve(env.DATA_DIR), 'pglite'),
    },
    queue: { pollIntervalSeconds: env.QUEUE_POLL_INTERVAL_SECONDS, concurrency: env.WORKER_CONCURRENCY },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
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
    redisUrl: env.REDIS_URL,
    ...overrides,
  };
  return Object.freeze(config);
}

/** Loads `.env` from the working directory when present (Node's own parser; real env vars win). */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
