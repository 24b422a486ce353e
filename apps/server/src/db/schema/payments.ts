import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * One checkout for a product (a credit package, or a photo shoot whose `credits` is 0). Created `pending` when the Checkout Session is made; moves to
 * `paid` exactly once (a conditional UPDATE in the same transaction as the ledger grant), then maybe
 * `refunded`. `failed` when an async payment fails. Amounts are integer minor units.
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    packageId: text('package_id').notNull(),
    packageName: text('package_name').notNull(),
    credits: integer('credits').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'cancelled', 'expired', 'refunded'] })
      .notNull()
      .default('pending'),
    stripeSessionId: text('stripe_session_id').notNull().unique(),
    stripePaymentIntent: text('stripe_payment_intent'),
    stripeCustomerId: text('stripe_customer_id'),
    receiptUrl: text('receipt_url'),
    /** Where the checkout returns to (kept for the development checkout page). */
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    /** Cumulative amount refunded (Stripe's `amount_refunded`), for proportional clawbacks. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /** Credits already taken back by refunds. */
    clawedBackCredits: integer('clawed_back_credits').notNull().default(0),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payments_user_id_idx').on(t.userId, t.createdAt),
    index('payments_payment_intent_idx').on(t.stripePaymentIntent),
    // A product other than a credit package (a photo shoot) adds no credits.
    check('payments_amount_positive', sql`${t.amountCents} > 0 and ${t.credits} >= 0`),
  ],
);

export type PaymentRow = typeof payments.$inferSelect;

/** The user's Stripe customer, created on first purchase, for the billing portal. */
export const stripeCustomers = pgTable('stripe_customers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  customerId: text('customer_id').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
