import fastifyRateLimit from '@fastify/rate-limit';
import type { Contract } from '@lumina/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { clientAddress } from './client-address.ts';
import { pgRateLimitStore } from './pg-rate-limit.store.ts';

const MINUTE_MS = 60_000;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Counted like writes: opening one costs a database subscription and a socket for as long as it lasts. */
const STREAM_PATH = '/api/progress/stream';
/** CPU-heavy (a whole image decoded per call): a budget of its own on top of the write budget. */
const PREVIEW_PATH = '/api/images/convert-preview';

export type LimitStoreKind = 'redis' | 'postgres' | 'memory';

/** The 429 every limit answers with; the error handler sends its Retry-After. */
export function rateLimited(retryAfterSeconds: number, detail?: string): AppError {
  const wait = retryAfterSeconds === 1 ? 'a second' : `${retryAfterSeconds} seconds`;
  return new AppError('RATE_LIMITED', detail ?? `Too many requests. Please wait ${wait} and try again.`, {
    retryAfterSeconds,
  });
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Rate limits on the product API (@fastify/rate-limit as the counter, our own hooks around it): every
 * write route under /api (and opening a progress stream) counts against the client address before
 * anything else runs, and against the signed-in person once `app.requireUser` has run; convert-preview
 * has a tighter per-person budget as well. Vendor webhooks are not limited (a refused webhook is a lost
 * payment or result). Counters live in Redis when REDIS_URL is set, else in PostgreSQL when
 * DATABASE_URL is set (shared by every API process), else in this process's memory (the embedded
 * database is one process anyway). Must be registered before the routes it limits.
 */
export async function registerLimits(
  app: FastifyInstance,
  deps: { config: Config; db: Database },
): Promise<LimitStoreKind> {
  const { config } = deps;
  let kind: LimitStoreKind = 'memory';
  if (config.redisUrl) {
    // Connected before the first request (start-up fails, naming Redis, when it is unreachable). Later
    // outages fail fast rather than queue: a limit that cannot be counted lets the request through
    // (skipOnError) instead of holding it.
    const redis = new Redis(config.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
    try {
      // connect() alone waits through ioredis's reconnect attempts for ever; the first error decides.
      await new Promise<void>((resolve, reject) => {
        redis.once('error', reject);
        redis.connect().then(resolve, reject);
      });
    } catch (err) {
      redis.disconnect();
      throw new Error(
        `Cannot reach Redis at REDIS_URL: ${err instanceof Error ? err.message : String(err)}`,
        {
          cause: err,
        },
      );
    }
    // Later outages: ioredis reconnects by itself; meanwhile limits are skipped (skipOnError).
    redis.on('error', (err: Error) =>
      app.log.warn({ err: err.message }, 'Redis for rate limits unavailable'),
    );
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    await fastifyRateLimitWith(app, { redis, nameSpace: 'lumina-rl:' });
    kind = 'redis';
  } else if (config.database.url) {
    await fastifyRateLimitWith(app, { store: pgRateLimitStore(deps.db) });
    kind = 'postgres';
  } else {
    await fastifyRateLimitWith(app, {});
  }

  app.log.info({ store: kind }, 'product API rate limits counted in %s', kind);
  const limits = config.limits;
  const ipWrites = app.createRateLimit({
    max: limits.ipWritesPerMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `ip:${clientAddress(request)}`,
  });
  const userWrites = app.createRateLimit({
    max: limits.writesPerMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `user:${request.user.id}`,
  });
  const userPreviews = app.createRateLimit({
    max: limits.previewsPerMinute,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `preview:${request.user.id}`,
  });

  const byIp = enforce(ipWrites);
  const byUser = [enforce(userWrites, signedIn)];
  const previews = [...byUser, enforce(userPreviews, signedIn)];

  app.addHook('onRoute', (routeOptions) => {
    const contract = routeOptions.config?.contract as Contract | undefined;
    if (!contract || !isLimited(routeOptions, contract)) return;
    routeOptions.onRequest = [...asArray(routeOptions.onRequest), byIp];
    // After requireUser (the route's preValidation), so the person is known.
    if (contract.auth !== false) {
      const perUser = routeOptions.url === PREVIEW_PATH ? previews : byUser;
      routeOptions.preValidation = [...asArray(routeOptions.preValidation), ...perUser];
    }
  });
  return kind;
}

/**
 * A per-minute budget of a route's own (the referral programme's track and validate), counted in the
 * same store as every other limit: a hook for the route's preValidation that answers 429 once over.
 * Registered after `registerLimits`; `key` names who is counted (an address, a person).
 */
export function perMinuteBudget(
  app: FastifyInstance,
  name: string,
  max: number,
  key: (request: FastifyRequest) => string,
) {
  const limiter = app.createRateLimit({
    max,
    timeWindow: MINUTE_MS,
    keyGenerator: (request) => `${name}:${key(request)}`,
  });
  return enforce(limiter);
}

async function fastifyRateLimitWith(
  app: FastifyInstance,
  options: Pick<Parameters<typeof fastifyRateLimit>[1], 'redis' | 'nameSpace' | 'store'>,
): Promise<void> {
  // global: false — nothing is limited until our hooks ask; skipOnError: a store outage is not an outage.
  await app.register(fastifyRateLimit, { global: false, skipOnError: true, ...options });
}

function isLimited(routeOptions: RouteOptions, contract: Contract): boolean {
  if (!routeOptions.url.startsWith('/api/') || routeOptions.url.startsWith('/api/webhooks/')) return false;
  const methods = ([] as string[]).concat(routeOptions.method);
  return methods.some((m) => WRITE_METHODS.has(m)) || contract.path === STREAM_PATH;
}

const signedIn = (request: FastifyRequest) => Boolean(request.user);

/** A hook that counts the request on `limiter` and refuses it with 429 and Retry-After once over. */
function enforce(limiter: Limiter, applies: (request: FastifyRequest) => boolean = () => true) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // requireUser may already have answered (a failed claim); nothing to count then.
    if (reply.sent || !applies(request)) return;
    const result = await limiter(request);
    if (result.isAllowed || !result.isExceeded) return;
    throw rateLimited(Math.max(1, result.ttlInSeconds));
  };
}

function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
