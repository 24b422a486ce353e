import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { payments } from './payments.ts';
import { trainedModels, trainingSets } from './training.ts';
import { users } from './users.ts';

/**
 * One purchase of a product (issue 13). Made `pending_payment` when a money checkout starts (or
 * straight into its first stage when paid with credits), it then walks the photo shoot's stages:
 * waiting_for_photos → training → generating → ready, or ends failed → refunded (exactly once).
 * `product` keeps the product as it was bought: the operator may change or drop it later.
 */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: text('product_id').notNull(),
    /** photo_shoot | credits */
    kind: text('kind').notNull(),
    /** The product definition as bought (name, prompts, images, trainer …). */
    product: jsonb('product').$type<Record<string, unknown>>().notNull(),
    /** pending_payment | waiting_for_photos | training | generating | ready | failed | refunded | cancelled */
    status: text('status').notNull().default('pending_payment'),
    /** money | credits */
    paidWith: text('paid_with').notNull(),
    /** Money purchases: the payment (its amount, currency and Stripe ids live there). */
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    /** Credit purchases: what was charged (ledger reference `purchase:<id>`). */
    creditsSpent: integer('credits_spent'),
    /** The photos a photo shoot trains on. */
    setId: uuid('set_id').references(() => trainingSets.id, { onDelete: 'set null' }),
    /** The model trained for a photo shoot, once training started. */
    trainedModelId: uuid('trained_model_id').references(() => trainedModels.id, { onDelete: 'set null' }),
    imagesTotal: integer('images_total').notNull().default(0),
    /** Why it failed and what was refunded, in words for people. */
    error: text('error'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** Set in the transaction that refunds it: the guard that makes a refund happen once. */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /** When the "your shoot is ready" email went out (sent once). */
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('purchases_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('purchases_payment_idx').on(t.paymentId),
    check('purchases_images_total_range', sql`${t.imagesTotal} >= 0`),
  ],
);

export type PurchaseRow = typeof purchases.$inferSelect;

/**
 * A person's onboarding answers (SPEC.md §3): one row per person, written by POST /api/onboarding
 * and editable on the account page. `completedAt` or `skippedAt` marks them onboarded.
 */
export const userProfiles = pgTable('user_profiles', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  useCase: text('use_case'),
  /** ISO 3166-1 alpha-2. */
  country: text('country'),
  /** E.164, or null. */
  phone: text('phone'),
  referralSource: text('referral_source'),
  gender: text('gender'),
  completedAt: timestamp('completed_at', { withTimezone: true }),
  skippedAt: timestamp('skipped_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UserProfileRow = typeof userProfiles.$inferSelect;
