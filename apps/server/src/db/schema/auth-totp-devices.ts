import { bigint, boolean, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * TOTP authenticator devices (RFC 6238: SHA-1, 6 digits, 30 s). `last_used_step` refuses a code that
 * was already used (replay within its window).
 */
export const authTotpDevices = pgTable(
  'auth_totp_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Base32 shared secret. */
    secret: text('secret').notNull(),
    verified: boolean('verified').notNull().default(false),
    lastUsedStep: bigint('last_used_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('auth_totp_devices_user_name_key').on(t.userId, t.name)],
);

export type AuthTotpDeviceRow = typeof authTotpDevices.$inferSelect;
