import { integer, pgTable, text, timestamp, index } from 'drizzle-orm/pg-core';

/**
 * A passwordless login attempt (SuperTokens' "device"). The client holds `deviceId`; we keep only its
 * sha256, whose base64url form is the public `preAuthSessionId`. Wrong codes count here.
 */
export const authPasswordlessDevices = pgTable(
  'auth_passwordless_devices',
  {
    /** base64url(sha256(deviceId)), also the preAuthSessionId. */
    preAuthSessionId: text('pre_auth_session_id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('auth_passwordless_devices_email_idx').on(t.tenantId, t.email),
    index('auth_passwordless_devices_phone_idx').on(t.tenantId, t.phoneNumber),
  ],
);

export type AuthPasswordlessDeviceRow = typeof authPasswordlessDevices.$inferSelect;
