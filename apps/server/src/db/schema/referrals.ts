import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { payments } from './payments.ts';
import { users } from './users.ts';

/**
 * A person's referral codes (issue 14): everyone has a default one, and may make more (with an expiry),
 * turn them off or delete them. A deleted or inactive code binds nobody new but keeps its history, so
 * rows are never removed while a referral points at them.
 */
export const referralCodes = pgTable(
  'referral_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** As the person typed it (or as generated); matched without regard to case. */
    code: text('code').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    active: boolean('active').notNull().default(true),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * HMAC of the owner's address when they made the code (the default one on their first visit to the
     * referral page), like `referrals.signup_ip_hash`: a referred person paying from it is not rewarded.
     */
    ownerIpHash: text('owner_ip_hash'),
    /** Link visits: validations of this code seen (rate limited per address). */
    visits: integer('visits').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referral_codes_code_lower_key').on(sql`lower(${t.code})`),
    index('referral_codes_user_idx').on(t.userId),
    uniqueIndex('referral_codes_one_default_key')
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
);

export type ReferralCodeRow = typeof referralCodes.$inferSelect;

/**
 * One person referred by another: bound once (a person has at most one referrer), settling when the
 * referred person's first payment succeeds, completed when the settling period ends (both rewarded
 * through the ledger, keyed by this row), and clawed back once if that payment is refunded. A keyed
 * hash of the sign-up address and the payment's card fingerprint (never card data) are kept: one
 * shared with the referrer or their other referrals makes the referral not eligible.
 */
export const referrals = pgTable(
  'referrals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referrerId: uuid('referrer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    referredId: uuid('referred_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeId: uuid('code_id')
      .notNull()
      .references(() => referralCodes.id, { onDelete: 'cascade' }),
    /**
     * joined | settling (paid; rewards pending until `settles_at`) | completed | unrewarded (settled
     * without a referrer reward) | not_eligible (shared address or card; nothing paid) | clawed_back
     */
    status: text('status').notNull().default('joined'),
    /** Why a referral is not_eligible: shared_address | shared_card. */
    ineligibleReason: text('ineligible_reason'),
    /** HMAC of the referred person's address at binding (FILE_URL_SECRET-keyed), never the address. */
    signupIpHash: text('signup_ip_hash'),
    /** The first payment that completed it, and that payment's card fingerprint (Stripe's), if any. */
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    paymentFingerprint: text('payment_fingerprint'),
    referrerReward: integer('referrer_reward').notNull().default(0),
    welcomeReward: integer('welcome_reward').notNull().default(0),
    boundAt: timestamp('bound_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When the rewards of a settling referral become spendable (REFERRAL_SETTLE_DAYS after payment). */
    settlesAt: timestamp('settles_at', { withTimezone: true }),
    clawedBackAt: timestamp('clawed_back_at', { withTimezone: true }),
  },
  (t) => [
    index('referrals_referrer_idx').on(t.referrerId, t.boundAt.desc()),
    index('referrals_code_idx').on(t.codeId),
    index('referrals_payment_idx').on(t.paymentId),
    index('referrals_signup_ip_idx').on(t.referrerId, t.signupIpHash),
    index('referrals_fingerprint_idx').on(t.referrerId, t.paymentFingerprint),
  ],
);

export type ReferralRow = typeof referrals.$inferSelect;
