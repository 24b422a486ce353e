import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Stripe events already applied: an event id is recorded in the transaction that applies it. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});
