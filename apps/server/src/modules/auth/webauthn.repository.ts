import { and, asc, eq, gt, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  authLoginMethods,
  authWebauthnCredentials,
  authWebauthnOptions,
  authWebauthnRecoverTokens,
} from '../../db/schema/index.ts';

/** Queries on passkeys: generated options (challenges), credentials and recovery tokens. */

export async function insertOptions(db: DbOrTx, values: typeof authWebauthnOptions.$inferInsert) {
  const [row] = await db.insert(authWebauthnOptions).values(values).returning();
  return row!;
}

export async function deleteExpiredOptions(db: DbOrTx, now: Date) {
  await db.delete(authWebauthnOptions).where(lt(authWebauthnOptions.expiresAt, now));
}

/** Spends generated options (single use): deletes and returns them when they exist and have not expired. */
export async function takeOptions(db: DbOrTx, id: string, now: Date) {
  const [row] = await db
    .delete(authWebauthnOptions)
    .where(and(eq(authWebauthnOptions.id, id), gt(authWebauthnOptions.expiresAt, now)))
    .returning();
  return row;
}

export async function findCredential(db: DbOrTx, id: string) {
  const [row] = await db
    .select()
    .from(authWebauthnCredentials)
    .where(eq(authWebauthnCredentials.id, id))
    .limit(1);
  return row;
}

export async function credentialsOf(db: DbOrTx, userId: string) {
  return db
    .select()
    .from(authWebauthnCredentials)
    .where(eq(authWebauthnCredentials.userId, userId))
    .orderBy(asc(authWebauthnCredentials.createdAt), asc(authWebauthnCredentials.id));
}

export async function insertCredential(db: DbOrTx, values: typeof authWebauthnCredentials.$inferInsert) {
  const [row] = await db.insert(authWebauthnCredentials).values(values).onConflictDoNothing().returning();
  return row;
}

/** Moves the signature counter forward, only from the value that was checked (a concurrent use loses). */
export async function recordUse(db: DbOrTx, id: string, from: number, to: number, at: Date) {
  const rows = await db
    .update(authWebauthnCredentials)
    .set({ counter: to, lastUsedAt: at })
    .where(and(eq(authWebauthnCredentials.id, id), eq(authWebauthnCredentials.counter, from)))
    .returning({ id: authWebauthnCredentials.id });
  return rows.length > 0;
}

/** Removes one of the person's own credentials; undefined when they hold none by that id. */
export async function deleteCredential(db: DbOrTx, userId: string, id: string) {
  const [row] = await db
    .delete(authWebauthnCredentials)
    .where(and(eq(authWebauthnCredentials.id, id), eq(authWebauthnCredentials.userId, userId)))
    .returning();
  return row;
}

/** Removes every passkey of a login method. */
export async function deleteCredentialsOfMethod(db: DbOrTx, loginMethodId: string) {
  await db.delete(authWebauthnCredentials).where(eq(authWebauthnCredentials.loginMethodId, loginMethodId));
}

export async function renameCredential(db: DbOrTx, userId: string, id: string, name: string) {
  const [row] = await db
    .update(authWebauthnCredentials)
    .set({ name })
    .where(and(eq(authWebauthnCredentials.id, id), eq(authWebauthnCredentials.userId, userId)))
    .returning();
  return row;
}

export async function findWebauthnMethodByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select()
    .from(authLoginMethods)
    .where(
      and(eq(authLoginMethods.recipeId, 'webauthn'), sql`lower(${authLoginMethods.email}) = lower(${email})`),
    )
    .limit(1);
  return row;
}

export async function findWebauthnMethodOfUser(db: DbOrTx, userId: string) {
  const [row] = await db
    .select()
    .from(authLoginMethods)
    .where(and(eq(authLoginMethods.recipeId, 'webauthn'), eq(authLoginMethods.userId, userId)))
    .orderBy(asc(authLoginMethods.createdAt))
    .limit(1);
  return row;
}

/** Any login method (of any recipe) that carries this address. */
export async function findMethodWithEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select()
    .from(authLoginMethods)
    .where(sql`lower(${authLoginMethods.email}) = lower(${email})`)
    .limit(1);
  return row;
}

export async function insertRecoverToken(db: DbOrTx, values: typeof authWebauthnRecoverTokens.$inferInsert) {
  await db.insert(authWebauthnRecoverTokens).values(values);
}

export async function findRecoverToken(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(authWebauthnRecoverTokens)
    .where(
      and(eq(authWebauthnRecoverTokens.tokenHash, tokenHash), gt(authWebauthnRecoverTokens.expiresAt, now)),
    )
    .limit(1);
  return row;
}

export async function takeRecoverToken(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .delete(authWebauthnRecoverTokens)
    .where(
      and(eq(authWebauthnRecoverTokens.tokenHash, tokenHash), gt(authWebauthnRecoverTokens.expiresAt, now)),
    )
    .returning();
  return row;
}
