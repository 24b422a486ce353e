import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A failure a vendor's breaker counted (`vendor_health.recent_failures`, newest first, a few kept). */
export interface VendorFailure {
  at: string;
  /** What went wrong, for operators (the vendor's own message; never a secret). */
  error: string;
  jobId: string | null;
}

/**
 * One row per vendor that has been used: its circuit breaker, shared by every API and worker process
 * (the state lives here, not in memory, so `/api/ready` in the API process sees what workers learnt).
 * `state` is `closed` or `open`; an open breaker past its cool-down reads as half-open: one job at a
 * time may try the vendor (`trial_until`, its lease), and that try decides: a success closes it, a
 * failure opens it again.
 */
export const vendorHealth = pgTable('vendor_health', {
  vendor: text('vendor').primaryKey(),
  state: text('state').notNull().default('closed'),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  openedAt: timestamp('opened_at', { withTimezone: true }),
  lastError: text('last_error'),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
  recentFailures: jsonb('recent_failures').$type<VendorFailure[]>().notNull().default([]),
  /** While half-open: until when one job's trial holds the vendor (others skip it meanwhile). */
  trialUntil: timestamp('trial_until', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type VendorHealthRow = typeof vendorHealth.$inferSelect;
