import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { authSessions } from './auth-sessions.ts';

/**
 * Every refresh token a session was given, stored as its sha256. A token is spent by one refresh
 * (`rotated_at` set, `child_hash` names its successor); presenting a spent token again is theft unless
 * it falls in the short grace window for a lost response. A successor that such a retry replaced is
 * spent with no `child_hash`, so presenting it is theft.
 */
export const authRefreshTokens = pgTable(
  'auth_refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionHandle: uuid('session_handle')
      .notNull()
      .references(() => authSessions.handle, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    childHash: text('child_hash'),
  },
  (t) => [index('auth_refresh_tokens_session_idx').on(t.sessionHandle)],
);

export type AuthRefreshTokenRow = typeof authRefreshTokens.$inferSelect;
