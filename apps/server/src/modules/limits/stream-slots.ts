import { randomUUID } from 'node:crypto';
import { and, eq, like, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { authRateLimits } from '../../db/schema/index.ts';

/** A slot not refreshed for this long belongs to a process that died; it no longer counts. */
export const STREAM_SLOT_STALE_MS = 60_000;

const keyPrefix = (userId: string) => `sse:${userId}:`;

/**
 * Open progress streams per person, counted in the database so every API process sees the same
 * number: one row per open stream in auth_rate_limits (key `sse:<user>:<slot>`, window_start = last
 * heartbeat). A process that dies leaves rows behind; they stop counting after STREAM_SLOT_STALE_MS,
 * which the stream's keep-alive ping (every 15 s) refreshes well within.
 */
export class StreamSlots {
  constructor(
    private readonly db: Database,
    readonly maxPerUser: number,
  ) {}

  /** A slot id, or null when the person already has `maxPerUser` streams open. */
  async acquire(userId: string): Promise<string | null> {
    const prefix = keyPrefix(userId);
    return this.db.transaction(async (tx) => {
      // One person's opens are serialised (across processes), so two at once cannot both take the last slot.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${prefix}))`);
      const staleBefore = new Date(Date.now() - STREAM_SLOT_STALE_MS);
      await tx
        .delete(authRateLimits)
        .where(and(like(authRateLimits.key, `${prefix}%`), lt(authRateLimits.windowStart, staleBefore)));
      const [open] = await tx
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(authRateLimits)
        .where(like(authRateLimits.key, `${prefix}%`));
      if ((open?.n ?? 0) >= this.maxPerUser) return null;
      const slot = `${prefix}${randomUUID()}`;
      await tx.insert(authRateLimits).values({ key: slot, windowStart: new Date(), count: 1 });
      return slot;
    });
  }

  async heartbeat(slot: string): Promise<void> {
    await this.db.update(authRateLimits).set({ windowStart: new Date() }).where(eq(authRateLimits.key, slot));
  }

  async release(slot: string): Promise<void> {
    await this.db.delete(authRateLimits).where(eq(authRateLimits.key, slot));
  }
}
