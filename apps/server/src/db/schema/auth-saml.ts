import { boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * SAML sign-ins under way: one row per AuthnRequest we sent (its ID is the RelayState too), holding
 * where the browser goes back to and the web SDK's `state`. Spent (deleted) by the first response that
 * answers it, so a replayed response finds nothing; ten minutes at most, like the SDK's own state.
 */
export const authSamlRequests = pgTable('auth_saml_requests', {
  id: text('id').primaryKey(),
  tenantId: text('tenant_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  state: text('state').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * One-time codes the assertion consumer service hands the web callback page (sha256 of the code): the
 * verified profile waits here until `POST /auth/signinup` spends the code, for a few minutes at most.
 */
export const authSamlCodes = pgTable('auth_saml_codes', {
  codeHash: text('code_hash').primaryKey(),
  tenantId: text('tenant_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  nameId: text('name_id').notNull(),
  email: text('email'),
  emailVerified: boolean('email_verified').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
