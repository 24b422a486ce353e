import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authRefreshTokens, authSessions, type AuthSessionRow } from '../../db/schema/index.ts';

/** Queries on sessions and their refresh tokens. */

export async function insertSession(
  db: DbOrTx,
  values: typeof authSessions.$inferInsert,
): Promise<AuthSessionRow> {
  const [row] = await db.insert(authSessions).values(values).returning();
  return row!;
}

export async function findSession(db: DbOrTx, handle: string): Promise<AuthSessionRow | undefined> {
  const [row] = await db.select().from(authSessions).where(eq(authSessions.handle, handle)).limit(1);
  return row;
}

export async function updateSession(
  db: DbOrTx,
  handle: string,
  values: Partial<typeof authSessions.$inferInsert>,
) {
  const [row] = await db.update(authSessions).set(values).where(eq(authSessions.handle, handle)).returning();
  return row;
}

export async function revokeSession(db: DbOrTx, handle: string, reason: string, at: Date) {
  await db
    .update(authSessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(authSessions.handle, handle), isNull(authSessions.revokedAt)));
  await db.delete(authRefreshTokens).where(eq(authRefreshTokens.sessionHandle, handle));
}

export async function revokeUserSessions(
  db: DbOrTx,
  userId: string,
  reason: string,
  at: Date,
): Promise<string[]> {
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)))
    .returning({ handle: authSessions.handle });
  for (const { handle } of rows)
    await db.delete(authRefreshTokens).where(eq(authRefreshTokens.sessionHandle, handle));
  return rows.map((r) => r.handle);
}

export async function insertRefreshToken(db: DbOrTx, values: typeof authRefreshTokens.$inferInsert) {
  await db.insert(authRefreshTokens).values(values);
}

/** The refresh token row, locked for the rest of the transaction (concurrent refreshes serialise). */
export async function lockRefreshToken(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select()
    .from(authRefreshTokens)
    .where(eq(authRefreshTokens.tokenHash, tokenHash))
    .for('update')
    .limit(1);
  return row;
}

export async function findRefreshToken(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select()
    .from(authRefreshTokens)
    .where(eq(authRefreshTokens.tokenHash, tokenHash))
    .limit(1);
  return row;
}

export async function markRefreshTokenRotated(db: DbOrTx, tokenHash: string, childHash: string, at: Date) {
  await db
    .update(authRefreshTokens)
    .set({ rotatedAt: at, childHash })
    .where(eq(authRefreshTokens.tokenHash, tokenHash));
}

/** Spends a token without a successor, so presenting it later reads as theft (see SessionService.refresh). */
export async function retireRefreshToken(db: DbOrTx, tokenHash: string, at: Date) {
  await db
    .update(authRefreshTokens)
    .set({ rotatedAt: at, childHash: null })
    .where(eq(authRefreshTokens.tokenHash, tokenHash));
}
