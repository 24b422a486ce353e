import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the OpenID provider (oidc-provider, "Sign in with Lumina") keeps between requests: sessions,
 * interactions (login challenges), authorisation codes, access and refresh tokens, grants. One row per
 * model and id; `expires_at` is honoured on every read, so an expired row is never used even before it
 * is swept.
 */
export const authOauthPayloads = pgTable(
  'auth_oauth_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('auth_oauth_payloads_grant_id_idx').on(t.grantId),
    index('auth_oauth_payloads_uid_idx').on(t.uid),
    index('auth_oauth_payloads_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * The OpenID provider's own secrets, created on first start and shared by every API process: `jwks`
 * (the private signing keys of id_tokens and JWT access tokens, separate from the session keys) and
 * `cookies` (the keys that sign its interaction and session cookies).
 */
export const authOauthSecrets = pgTable('auth_oauth_secrets', {
  name: text('name').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export type AuthOauthPayloadRow = typeof authOauthPayloads.$inferSelect;
