import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { authPasswordlessDevices } from './auth-passwordless-devices.ts';

/**
 * One code sent for a device (a resend adds another). The 6-digit code is stored as an HMAC keyed by the
 * device id the client holds, the link code as its sha256; neither is stored in the clear.
 */
export const authPasswordlessCodes = pgTable(
  'auth_passwordless_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    preAuthSessionId: text('pre_auth_session_id')
      .notNull()
      .references(() => authPasswordlessDevices.preAuthSessionId, { onDelete: 'cascade' }),
    userInputCodeHash: text('user_input_code_hash').notNull(),
    linkCodeHash: text('link_code_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('auth_passwordless_codes_device_idx').on(t.preAuthSessionId)],
);

export type AuthPasswordlessCodeRow = typeof authPasswordlessCodes.$inferSelect;
