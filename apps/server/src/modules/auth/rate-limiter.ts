import type { DbOrTx } from '../../db/client.ts';
import {
  countHitInWindow,
  deleteCounters,
  deleteCountersStartedBefore,
  findCounter,
  lockCounters,
  stampCounter,
  takeBackHit,
} from '../limits/rate-limits.repository.ts';
import type { Clock } from '../../clock.ts';

/**
 * Fixed-window counters in the database, so every API process shares them (PGlite or PostgreSQL; no
 * extra service). One upsert per hit.
 */
export class RateLimiter {
  private hits = 0;

  constructor(
    private readonly db: DbOrTx,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `work` in one transaction holding `lock`, with a limiter on that transaction: whoever else runs
   * under the same lock (any process) waits, so a decision read from the counters is still true when
   * the counters are written.
   */
  async serialised<T>(lock: string, work: (limiter: RateLimiter) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await lockCounters(tx, lock);
      return work(new RateLimiter(tx, this.clock));
    });
  }

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

  /** Takes one hit back from `key`'s current count (a try that turned out not to count). */
  async giveBack(key: string): Promise<void> {
    await takeBackHit(this.db, key);
  }

  async reset(...keys: string[]): Promise<void> {
    await deleteCounters(this.db, keys);
  }
}
