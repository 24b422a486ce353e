import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { authLoginMethods } from './auth-login-methods.ts';

/** Email-verification links (sha256 of the token), one day by default, single use. */
export const authEmailVerificationTokens = pgTable('auth_email_verification_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  loginMethodId: uuid('login_method_id')
    .notNull()
    .references(() => authLoginMethods.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  tenantId: text('tenant_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
