import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A way to sign in that belongs to one user (SuperTokens' "recipe user"): a passwordless email or phone
 * number, or a third-party account. A user's first login method has the user's own id, so an unlinked
 * user looks the same as in SuperTokens (user id = recipe user id).
 */
export const authLoginMethods = pgTable(
  'auth_login_methods',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `passwordless`, `thirdparty` or `webauthn`. */
    recipeId: text('recipe_id').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    thirdPartyId: text('third_party_id'),
    thirdPartyUserId: text('third_party_user_id'),
    verified: boolean('verified').notNull().default(false),
    tenantIds: text('tenant_ids').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('auth_login_methods_user_id_idx').on(t.userId),
    uniqueIndex('auth_login_methods_passwordless_email_key')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.recipeId} = 'passwordless' and ${t.email} is not null`),
    uniqueIndex('auth_login_methods_passwordless_phone_key')
      .on(t.phoneNumber)
      .where(sql`${t.recipeId} = 'passwordless' and ${t.phoneNumber} is not null`),
    uniqueIndex('auth_login_methods_webauthn_email_key')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.recipeId} = 'webauthn'`),
    uniqueIndex('auth_login_methods_third_party_key')
      .on(t.thirdPartyId, t.thirdPartyUserId)
      .where(sql`${t.recipeId} = 'thirdparty'`),
  ],
);

export type AuthLoginMethodRow = typeof authLoginMethods.$inferSelect;
