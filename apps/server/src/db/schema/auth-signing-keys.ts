import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Access-token signing keys (RS256). The newest key signs until `sign_until`; every key stays in the
 * JWKS until `verify_until` (its last signature plus the access-token lifetime), so tokens signed just
 * before a rotation still verify.
 */
export const authSigningKeys = pgTable('auth_signing_keys', {
  kid: text('kid').primaryKey(),
  algorithm: text('algorithm').notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  privateJwk: jsonb('private_jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  signUntil: timestamp('sign_until', { withTimezone: true }).notNull(),
  verifyUntil: timestamp('verify_until', { withTimezone: true }).notNull(),
});

export type AuthSigningKeyRow = typeof authSigningKeys.$inferSelect;
