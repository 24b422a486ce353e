import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * The append-only credit ledger: every change to a balance is one row, never updated or deleted.
 * `idempotency_key` is unique so a retried write (a job charge, a refund, a Stripe event) lands once.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Positive grants credits, negative spends them. Whole credits only. */
    amount: integer('amount').notNull(),
    /** The balance right after this entry, for the history's running balance. */
    balanceAfter: integer('balance_after').notNull(),
    reason: text('reason').notNull(),
    /** What the entry is about: a job id, a payment id, a referral id. */
    reference: text('reference'),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('credit_ledger_user_id_idx').on(t.userId, t.id),
    index('credit_ledger_reference_idx').on(t.reference),
    check('credit_ledger_amount_nonzero', sql`${t.amount} <> 0`),
  ],
);

/**
 * The current balance per user, kept in the same transaction as each ledger row. It is derived data
 * (the sum of the user's ledger amounts) held as a row so a spend can be one conditional UPDATE that
 * the database serialises per user: no read-then-write race, no balance below zero.
 */
export const creditBalances = pgTable('credit_balances', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  balance: integer('balance').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type CreditLedgerRow = typeof creditLedger.$inferSelect;
