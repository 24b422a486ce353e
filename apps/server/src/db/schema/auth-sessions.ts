import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * One signed-in session (a device). Access tokens are stateless JWTs naming `handle`; the row is what
 * refresh, sign-out and revocation act on. `claims` holds the session's claim values (st-mfa, st-ev)
 * so a refresh re-issues them.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    handle: uuid('handle').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipeUserId: uuid('recipe_user_id').notNull(),
    tenantId: text('tenant_id').notNull(),
    claims: jsonb('claims').$type<Record<string, unknown>>().notNull(),
    /** Set in cookie mode with the via-token anti-CSRF policy. */
    antiCsrfToken: text('anti_csrf_token'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** When the newest refresh token expires; the session ends then. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Why it was revoked: `signout`, `token-theft`, `revoke-all`. */
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('auth_sessions_user_id_idx').on(t.userId)],
);

export type AuthSessionRow = typeof authSessions.$inferSelect;
