import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authTotpDevices, authUserMfa, type AuthUserMfaRow } from '../../db/schema/index.ts';

/** Queries on users' MFA settings and TOTP devices. */

export async function findUserMfa(db: DbOrTx, userId: string): Promise<AuthUserMfaRow | undefined> {
  const [row] = await db.select().from(authUserMfa).where(eq(authUserMfa.userId, userId)).limit(1);
  return row;
}

/** The row, created when missing, locked for the rest of the transaction. */
export async function lockUserMfa(db: DbOrTx, userId: string): Promise<AuthUserMfaRow> {
  await db.insert(authUserMfa).values({ userId }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(authUserMfa)
    .where(eq(authUserMfa.userId, userId))
    .for('update')
    .limit(1);
  return row!;
}

export async function updateUserMfa(
  db: DbOrTx,
  userId: string,
  values: Partial<typeof authUserMfa.$inferInsert>,
) {
  await db.update(authUserMfa).set(values).where(eq(authUserMfa.userId, userId));
}

export async function totpDevicesOf(db: DbOrTx, userId: string) {
  return db
    .select()
    .from(authTotpDevices)
    .where(eq(authTotpDevices.userId, userId))
    .orderBy(asc(authTotpDevices.createdAt), asc(authTotpDevices.name));
}

export async function insertTotpDevice(db: DbOrTx, values: typeof authTotpDevices.$inferInsert) {
  const [row] = await db.insert(authTotpDevices).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateTotpDevice(
  db: DbOrTx,
  id: string,
  values: Partial<typeof authTotpDevices.$inferInsert>,
) {
  await db.update(authTotpDevices).set(values).where(eq(authTotpDevices.id, id));
}

export async function deleteTotpDevice(db: DbOrTx, userId: string, name: string) {
  const rows = await db
    .delete(authTotpDevices)
    .where(and(eq(authTotpDevices.userId, userId), eq(authTotpDevices.name, name)))
    .returning({ id: authTotpDevices.id, verified: authTotpDevices.verified });
  return rows[0];
}
