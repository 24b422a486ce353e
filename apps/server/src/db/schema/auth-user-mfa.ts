import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A user's multi-factor settings: the second factors they turned on (any one of them completes a
 * sign-in) and the TOTP failure counter with its lock-out.
 */
export const authUserMfa = pgTable('auth_user_mfa', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  requiredFactors: text('required_factors').array().notNull().default([]),
  totpFailedAttempts: integer('totp_failed_attempts').notNull().default(0),
  totpLockedUntil: timestamp('totp_locked_until', { withTimezone: true }),
});

export type AuthUserMfaRow = typeof authUserMfa.$inferSelect;
