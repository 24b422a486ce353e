import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { vendorHealth, type VendorFailure, type VendorHealthRow } from '../../db/schema/index.ts';

/** How many of a vendor's latest failures its row keeps for the operator view. */
export const RECENT_FAILURES_KEPT = 10;

/** Drizzle queries for `vendor_health`; every change is one statement, so processes never race. */

export async function allVendorHealth(db: DbOrTx): Promise<VendorHealthRow[]> {
  return db.select().from(vendorHealth);
}

export async function findVendorHealth(db: DbOrTx, vendor: string): Promise<VendorHealthRow | undefined> {
  const [row] = await db.select().from(vendorHealth).where(eq(vendorHealth.vendor, vendor));
  return row;
}

/**
 * Counts one temporary failure. The breaker opens (again) when the count in a row reaches `threshold`,
 * or at once when it was already open (a half-open trial failed): `opened_at` restarts the cool-down.
 */
export async function recordFailure(
  db: DbOrTx,
  vendor: string,
  failure: { at: Date; error: string; jobId: string | null; threshold: number },
): Promise<VendorHealthRow> {
  const entry: VendorFailure = { at: failure.at.toISOString(), error: failure.error, jobId: failure.jobId };
  const at = sql`${failure.at.toISOString()}::timestamptz`;
  const opens = sql.raw(
    `(vendor_health.state = 'open' or vendor_health.consecutive_failures + 1 >= ${failure.threshold})`,
  );
  const opensAtOnce = failure.threshold <= 1;
  const [row] = await db
    .insert(vendorHealth)
    .values({
      vendor,
      state: opensAtOnce ? 'open' : 'closed',
      consecutiveFailures: 1,
      openedAt: opensAtOnce ? failure.at : null,
      lastError: failure.error,
      lastFailureAt: failure.at,
      recentFailures: [entry],
      updatedAt: failure.at,
    })
    .onConflictDoUpdate({
      target: vendorHealth.vendor,
      set: {
        consecutiveFailures: sql.raw('vendor_health.consecutive_failures + 1'),
        state: sql`case when ${opens} then 'open' else 'closed' end`,
        openedAt: sql`case when ${opens} then ${at} end`,
        lastError: failure.error,
        lastFailureAt: failure.at,
        recentFailures: sql`jsonb_path_query_array(jsonb_build_array(${JSON.stringify(entry)}::jsonb) || vendor_health.recent_failures, ${`$[0 to ${RECENT_FAILURES_KEPT - 1}]`}::jsonpath)`,
        trialUntil: null,
        updatedAt: at,
      },
    })
    .returning();
  return row!;
}

/** A success closes the breaker and clears the count. */
export async function recordSuccess(db: DbOrTx, vendor: string, at: Date, quietMs: number): Promise<void> {
  await db
    .insert(vendorHealth)
    .values({ vendor, state: 'closed', consecutiveFailures: 0, lastSuccessAt: at, updatedAt: at })
    .onConflictDoUpdate({
      target: vendorHealth.vendor,
      set: {
        state: 'closed',
        consecutiveFailures: 0,
        openedAt: null,
        trialUntil: null,
        lastSuccessAt: at,
        updatedAt: at,
      },
      // A healthy vendor's row is rewritten at most every `quietMs`; any failure (from any process)
      // or a breaker not closed is cleared by the very next success.
      setWhere: sql`${vendorHealth.consecutiveFailures} > 0 or ${vendorHealth.state} <> 'closed' or ${vendorHealth.lastSuccessAt} is null or ${vendorHealth.lastSuccessAt} < ${new Date(at.getTime() - quietMs)}`,
    });
}

/** An operator's reset: closed, count cleared; the failures stay listed. Undefined when it has no row. */
export async function resetVendor(
  db: DbOrTx,
  vendor: string,
  at: Date,
): Promise<VendorHealthRow | undefined> {
  const [row] = await db
    .update(vendorHealth)
    .set({ state: 'closed', consecutiveFailures: 0, openedAt: null, trialUntil: null, updatedAt: at })
    .where(eq(vendorHealth.vendor, vendor))
    .returning();
  return row;
}

/**
 * Claims the one trial of a half-open vendor: true for the caller that got it. Only an open breaker
 * whose cool-down ended (`opened_at` at or before `cooledSince`) and whose last trial's lease is over
 * can be claimed, in one statement, so two workers asking at once cannot both get it.
 */
export async function claimTrial(
  db: DbOrTx,
  vendor: string,
  at: { now: Date; cooledSince: Date; leaseUntil: Date },
): Promise<boolean> {
  const rows = await db
    .update(vendorHealth)
    .set({ trialUntil: at.leaseUntil, updatedAt: at.now })
    .where(
      and(
        eq(vendorHealth.vendor, vendor),
        eq(vendorHealth.state, 'open'),
        lte(vendorHealth.openedAt, at.cooledSince),
        or(isNull(vendorHealth.trialUntil), lte(vendorHealth.trialUntil, at.now)),
      ),
    )
    .returning({ vendor: vendorHealth.vendor });
  return rows.length === 1;
}
