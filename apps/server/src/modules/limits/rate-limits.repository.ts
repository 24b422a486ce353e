import { and, eq, inArray, like, lt, sql } from 'drizzle-orm';
import type { Database, DbOrTx, Tx } from '../../db/client.ts';
import { authRateLimits } from '../../db/schema/index.ts';

/**
 * Queries on `auth_rate_limits`, the one table of counters: the sign-in limits (auth's RateLimiter),
 * the product API's PostgreSQL store and the open progress streams all keep their rows here, apart by
 * key prefix.
 */

/**
 * The one fixed-window counter: one upsert counts a hit on `key`, starting a new window when the
 * current one is `windowMs` old. `now` is the time the window is measured by: the caller's clock (so
 * tests can move it) or `'database'`, the database's `now()` (so processes with drifting clocks
 * agree). Returns the count in the window, its start and that `now`, in milliseconds.
 */
export async function countHitInWindow(
  db: DbOrTx,
  key: string,
  windowMs: number,
  clock: Date | 'database',
): Promise<{ count: number; windowStart: number; now: number }> {
  const now = clock === 'database' ? sql`now()` : sql`${clock.toISOString()}::timestamptz`;
  const expired = sql`${authRateLimits.windowStart} <= ${now} - (${windowMs}::float8 * interval '1 millisecond')`;
  const [row] = await db
    .insert(authRateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: authRateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${authRateLimits.count} + 1 end`,
        windowStart: sql`case when ${expired} then ${now} else ${authRateLimits.windowStart} end`,
      },
    })
    .returning({
      count: authRateLimits.count,
      windowStart: authRateLimits.windowStart,
      now: sql<number>`(extract(epoch from ${now}) * 1000)::float8`.mapWith(Number),
    });
  return { count: row!.count, windowStart: row!.windowStart.getTime(), now: row!.now };
}

/** The row of `key`, or undefined. */
export async function findCounter(db: DbOrTx, key: string) {
  const [row] = await db.select().from(authRateLimits).where(eq(authRateLimits.key, key)).limit(1);
  return row;
}

/** Sets `key`'s window start to `at` (creating the row), counting one more stamp. */
export async function stampCounter(db: DbOrTx, key: string, at: Date): Promise<void> {
  await db
    .insert(authRateLimits)
    .values({ key, windowStart: at, count: 1 })
    .onConflictDoUpdate({
      target: authRateLimits.key,
      set: { windowStart: at, count: sql`${authRateLimits.count} + 1` },
    });
}

/** Moves `key`'s window start to `at` when the row exists. */
export async function touchCounter(db: DbOrTx, key: string, at: Date): Promise<void> {
  await db.update(authRateLimits).set({ windowStart: at }).where(eq(authRateLimits.key, key));
}

/** Holds a transaction-long lock named `name`: counters read and written under it change for no one else. */
export async function lockCounters(tx: Tx, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`);
}

/** One hit fewer on `key`, never below zero. */
export async function takeBackHit(db: DbOrTx, key: string): Promise<void> {
  await db
    .update(authRateLimits)
    .set({ count: sql`greatest(${authRateLimits.count} - 1, 0)` })
    .where(eq(authRateLimits.key, key));
}

export async function deleteCounters(db: DbOrTx, keys: readonly string[]): Promise<void> {
  await db.delete(authRateLimits).where(inArray(authRateLimits.key, [...keys]));
}

/** Deletes rows whose window started before `before`, only those under `prefix` when given. */
export async function deleteCountersStartedBefore(db: DbOrTx, before: Date, prefix?: string): Promise<void> {
  const old = lt(authRateLimits.windowStart, before);
  await db
    .delete(authRateLimits)
    .where(prefix === undefined ? old : and(like(authRateLimits.key, `${prefix}%`), old));
}

/**
 * Inserts `slot` under `prefix` unless `max` rows under the prefix are already fresh (rows older than
 * `staleBefore` are deleted first). One prefix's takers are serialised across processes by an advisory
 * lock, so two at once cannot both take the last slot. True when the slot was taken.
 */
export function takeSlotUnderPrefix(
  db: Database,
  prefix: string,
  slot: string,
  max: number,
  staleBefore: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockCounters(tx, prefix);
    await deleteCountersStartedBefore(tx, staleBefore, prefix);
    const [open] = await tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(authRateLimits)
      .where(like(authRateLimits.key, `${prefix}%`));
    if ((open?.n ?? 0) >= max) return false;
    await tx.insert(authRateLimits).values({ key: slot, windowStart: new Date(), count: 1 });
    return true;
  });
}
