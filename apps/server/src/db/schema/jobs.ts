import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { purchases } from './purchases.ts';
import { users } from './users.ts';

/**
 * Every paid operation (generate, edit, upscale, animate, train …) is one row here: our own status
 * set, the provider's request id and raw status beside it, the charge and whether it was refunded.
 * The queue only carries the id; this row is the truth people see.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** queued | running | succeeded | failed | cancelled */
    status: text('status').notNull().default('queued'),
    modelId: text('model_id').notNull(),
    provider: text('provider').notNull(),
    providerModel: text('provider_model').notNull(),
    /** The whole request as the user gave it plus what we resolved (seed, size): the recipe. */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    numImages: integer('num_images').notNull().default(1),
    cost: integer('cost').notNull(),
    providerRequestId: text('provider_request_id'),
    providerStatus: text('provider_status'),
    queuePosition: integer('queue_position'),
    percent: integer('percent'),
    message: text('message'),
    /** When the latest live preview was stored (modules/jobs/previews.ts); null when there is none. */
    previewAt: timestamp('preview_at', { withTimezone: true }),
    /** Why it failed, in words for people. */
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /**
     * Every vendor this job was handed to, in order (failover): which one, its model name, how it
     * ended there and why, in words for people. The last `succeeded` entry made the outputs.
     */
    vendorAttempts: jsonb('vendor_attempts').$type<VendorAttempt[]>().notNull().default([]),
    /** The purchase this job is a stage of (a photo shoot's training or one of its generations). */
    purchaseId: uuid('purchase_id').references((): AnyPgColumn => purchases.id, { onDelete: 'set null' }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('jobs_active_idx')
      .on(t.createdAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    index('jobs_provider_request_idx').on(t.provider, t.providerRequestId),
    index('jobs_purchase_idx')
      .on(t.purchaseId)
      .where(sql`${t.purchaseId} is not null`),
  ],
);

/** One vendor's turn at a job (`jobs.vendor_attempts`). */
export interface VendorAttempt {
  vendor: string;
  providerModel: string;
  /** `failed` (a temporary problem), `timeout`, `skipped` (its breaker was open), `succeeded`. */
  outcome: 'succeeded' | 'failed' | 'timeout' | 'skipped';
  /** Why, in words for people (e.g. "did not answer in time"); null for a success. */
  reason: string | null;
  /** ISO 8601. */
  at: string;
}

export type JobRow = typeof jobs.$inferSelect;
