import type { Database } from '../../db/client.ts';
import { countHitInWindow, deleteCountersStartedBefore } from './rate-limits.repository.ts';

/** What @fastify/rate-limit expects of a store: `incr` reports the count in the window and the ms left. */
export interface RateLimitStore {
  incr(
    key: string,
    callback: (err: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void;
  child(options: unknown): RateLimitStore;
}

/** Product-limit rows share auth_rate_limits with the sign-in limits; this prefix keeps them apart. */
const PREFIX = 'api:';
const CLEANUP_EVERY = 1000;
const KEEP_MS = 86_400_000;

/**
 * Fixed-window counters in PostgreSQL, for @fastify/rate-limit when several API processes share a
 * database and there is no Redis: one upsert per counted request, windows timed by the database's
 * clock so processes with drifting clocks agree. Rows live in auth_rate_limits (no new table).
 */
export function pgRateLimitStore(db: Database): new () => RateLimitStore {
  let hits = 0;
  async function incr(key: string, timeWindow: number): Promise<{ current: number; ttl: number }> {
    const row = await countHitInWindow(db, PREFIX + key, timeWindow, 'database');
    if (++hits % CLEANUP_EVERY === 0) {
      await deleteCountersStartedBefore(db, new Date(Date.now() - KEEP_MS), PREFIX);
    }
    return { current: row.count, ttl: Math.max(0, row.windowStart + timeWindow - row.now) };
  }

  class PgRateLimitStore implements RateLimitStore {
    incr(
      key: string,
      callback: (err: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      incr(key, timeWindow).then(
        (result) => callback(null, result),
        (err: Error) => callback(err),
      );
    }
    // Keys are already namespaced by the limiter that uses them, so every child shares one table.
    child(): RateLimitStore {
      return new PgRateLimitStore();
    }
  }
  return PgRateLimitStore;
}
