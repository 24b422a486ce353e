import type { Database } from '../../db/client.ts';
import {
  countHitInWindow,
  deleteCounters,
  deleteCountersStartedBefore,
  findCounter,
  stampCounter,
} from '../limits/rate-limits.repository.ts';
import type { Clock } from '../../clock.ts';

/**
 * Fixed-window counters in the database, so every API process shares them (PGlite or PostgreSQL; no
 * extra service). One upsert per hit.
 */
export class RateLimiter {
  private hits = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Counts a hit on `key`; `allowed` is false once more than `max` hits fall in the current window. */
  async hit(
    key: string,
    max: number,
    windowSeconds: number,
  ): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const now = this.clock.now();
    const row = await countHitInWindow(this.db, key, windowSeconds * 1000, new Date(now));
    if (++this.hits % 500 === 0) {
      await deleteCountersStartedBefore(this.db, new Date(now - 86_400_000));
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((row.windowStart + windowSeconds * 1000 - now) / 1000));
    return { allowed: row.count <= max, retryAfterSeconds };
  }

  /** The count and start of `key`'s current window, without counting a hit (zero when none is open). */
  async peek(key: string, windowSeconds: number): Promise<{ count: number; windowStart: number }> {
    const now = this.clock.now();
    const row = await findCounter(this.db, key);
    if (!row || row.windowStart.getTime() <= now - windowSeconds * 1000)
      return { count: 0, windowStart: now };
    return { count: row.count, windowStart: row.windowStart.getTime() };
  }

  /** Records "last seen now" on `key` (its window starts again at every stamp). */
  async stamp(key: string): Promise<void> {
    await stampCounter(this.db, key, new Date(this.clock.now()));
  }

  async reset(...keys: string[]): Promise<void> {
    await deleteCounters(this.db, keys);
  }
}
