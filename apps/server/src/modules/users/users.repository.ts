import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  authLoginMethods,
  authWebauthnCredentials,
  userProfiles,
  users,
  type AuthLoginMethodRow,
  type UserRow,
} from '../../db/schema/index.ts';

/** Queries on users and their login methods. */

export async function findUser(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Completed or skipped onboarding (a `user_profiles` row saying so). */
export async function isOnboarded(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ completedAt: userProfiles.completedAt, skippedAt: userProfiles.skippedAt })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId));
  return Boolean(row?.completedAt ?? row?.skippedAt);
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row;
}

export async function insertUser(
  db: DbOrTx,
  values: { id?: string; email: string | null },
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function loginMethodsOf(db: DbOrTx, userId: string): Promise<AuthLoginMethodRow[]> {
  return db
    .select()
    .from(authLoginMethods)
    .where(eq(authLoginMethods.userId, userId))
    .orderBy(asc(authLoginMethods.createdAt), asc(authLoginMethods.id));
}

export async function findPasswordlessMethod(
  db: DbOrTx,
  contact: { email?: string; phoneNumber?: string },
): Promise<AuthLoginMethodRow | undefined> {
  const where = contact.email
    ? sql`lower(${authLoginMethods.email}) = lower(${contact.email})`
    : eq(authLoginMethods.phoneNumber, contact.phoneNumber ?? '');
  const [row] = await db
    .select()
    .from(authLoginMethods)
    .where(and(eq(authLoginMethods.recipeId, 'passwordless'), where))
    .limit(1);
  return row;
}

export async function insertLoginMethod(
  db: DbOrTx,
  values: typeof authLoginMethods.$inferInsert,
): Promise<AuthLoginMethodRow> {
  const [row] = await db.insert(authLoginMethods).values(values).returning();
  return row!;
}

export async function addTenantToLoginMethod(db: DbOrTx, id: string, tenantId: string): Promise<void> {
  await db
    .update(authLoginMethods)
    .set({ tenantIds: sql`array_append(${authLoginMethods.tenantIds}, ${tenantId})` })
    .where(and(eq(authLoginMethods.id, id), sql`not (${tenantId} = any(${authLoginMethods.tenantIds}))`));
}

export async function findLoginMethod(db: DbOrTx, id: string): Promise<AuthLoginMethodRow | undefined> {
  const [row] = await db.select().from(authLoginMethods).where(eq(authLoginMethods.id, id)).limit(1);
  return row;
}

export async function setLoginMethodVerified(db: DbOrTx, id: string): Promise<void> {
  await db.update(authLoginMethods).set({ verified: true }).where(eq(authLoginMethods.id, id));
}

export async function findThirdPartyMethod(db: DbOrTx, thirdPartyId: string, thirdPartyUserId: string) {
  const [row] = await db
    .select()
    .from(authLoginMethods)
    .where(
      and(
        eq(authLoginMethods.recipeId, 'thirdparty'),
        eq(authLoginMethods.thirdPartyId, thirdPartyId),
        eq(authLoginMethods.thirdPartyUserId, thirdPartyUserId),
      ),
    )
    .limit(1);
  return row;
}

export async function updateLoginMethodEmail(
  db: DbOrTx,
  id: string,
  email: string | null,
  verified: boolean,
) {
  await db.update(authLoginMethods).set({ email, verified }).where(eq(authLoginMethods.id, id));
}

export async function setUserEmailIfUnset(db: DbOrTx, userId: string, email: string) {
  await db
    .update(users)
    .set({ email, updatedAt: new Date() })
    .where(and(eq(users.id, userId), sql`${users.email} is null`));
}

/**
 * Takes an address off other people's passkey sign-ups that never proved it (it was only typed), so the
 * person who proved it is its one holder.
 */
export async function releaseUnprovenAddress(db: DbOrTx, email: string, provenByUserId: string) {
  await db
    .update(authLoginMethods)
    .set({ email: null })
    .where(
      and(
        eq(authLoginMethods.recipeId, 'webauthn'),
        eq(authLoginMethods.verified, false),
        sql`lower(${authLoginMethods.email}) = lower(${email})`,
        sql`${authLoginMethods.userId} <> ${provenByUserId}`,
      ),
    );
}

/** The addresses the user has proven: the emails of their verified login methods. */
export async function provenEmailsOf(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ email: authLoginMethods.email })
    .from(authLoginMethods)
    .where(
      and(
        eq(authLoginMethods.userId, userId),
        eq(authLoginMethods.verified, true),
        sql`${authLoginMethods.email} is not null`,
      ),
    );
  return rows.map((r) => r.email!);
}

/** The ids of the user's passkeys (the FDI user object's `webauthn.credentialIds`). */
export async function webauthnCredentialIdsOf(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: authWebauthnCredentials.id })
    .from(authWebauthnCredentials)
    .where(eq(authWebauthnCredentials.userId, userId))
    .orderBy(asc(authWebauthnCredentials.createdAt));
  return rows.map((r) => r.id);
}
