import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authRateLimits } from '../../db/schema/index.ts';

/**
 * The one fixed-window counter in `auth_rate_limits`, shared by the sign-in limits (RateLimiter) and
 * the product API's PostgreSQL store: one upsert counts a hit on `key`, starting a new window when
 * the current one is `windowMs` old. `now` is the time the window is measured by, as SQL: the
 * caller's clock (so tests can move it) or the database's `now()` (so processes with drifting clocks
 * agree). Returns the count in the window, its start and that `now`, in milliseconds.
 */
export async function countHitInWindow(
  db: DbOrTx,
  key: string,
  windowMs: number,
  now: SQL,
): Promise<{ count: number; windowStart: number; now: number }> {
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
