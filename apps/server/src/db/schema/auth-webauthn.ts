import { bigint, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { authLoginMethods } from './auth-login-methods.ts';
import { users } from './users.ts';

/**
 * Passkeys (WebAuthn credentials). Each belongs to one user through the user's `webauthn` login method.
 * `id` is the credential id (base64url) the authenticator chose; `counter` refuses a cloned authenticator
 * whose signature counter went backwards.
 */
export const authWebauthnCredentials = pgTable(
  'auth_webauthn_credentials',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    loginMethodId: uuid('login_method_id')
      .notNull()
      .references(() => authLoginMethods.id, { onDelete: 'cascade' }),
    /** COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    rpId: text('rp_id').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('auth_webauthn_credentials_user_id_idx').on(t.userId)],
);

export type AuthWebauthnCredentialRow = typeof authWebauthnCredentials.$inferSelect;

/**
 * Generated registration and sign-in options: the challenge, kept server-side until its expiry and
 * deleted by the first attempt that uses it (single use).
 */
export const authWebauthnOptions = pgTable(
  'auth_webauthn_options',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    /** `register` or `signin`. */
    kind: text('kind').notNull(),
    challenge: text('challenge').notNull(),
    /** The WebAuthn user handle (base64url) offered for a registration. */
    userHandle: text('user_handle'),
    email: text('email'),
    /** Recovery: the token hash the options were generated for. */
    recoverTokenHash: text('recover_token_hash'),
    /**
     * The session that asked for registration options while signed in; only that session may spend them.
     * Null for a signed-out sign-up or recovery, whose options no session may spend.
     */
    sessionHandle: uuid('session_handle'),
    rpId: text('rp_id').notNull(),
    origin: text('origin').notNull(),
    userVerification: text('user_verification').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('auth_webauthn_options_expires_at_idx').on(t.expiresAt)],
);

export type AuthWebauthnOptionsRow = typeof authWebauthnOptions.$inferSelect;

/** Account-recovery links for passkey accounts (sha256 of the token), single use. */
export const authWebauthnRecoverTokens = pgTable('auth_webauthn_recover_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  loginMethodId: uuid('login_method_id')
    .notNull()
    .references(() => authLoginMethods.id, { onDelete: 'cascade' }),
  email: text('email').notNull(),
  tenantId: text('tenant_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});
