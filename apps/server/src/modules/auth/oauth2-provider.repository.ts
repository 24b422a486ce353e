import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authOauthPayloads, authOauthSecrets, type AuthOauthPayloadRow } from '../../db/schema/index.ts';

/** Queries behind the OpenID provider's adapter (oidc-provider) and its secrets. */

/** Rows that have not expired at `now` (rows without an expiry never do). */
const live = (now: Date) => or(isNull(authOauthPayloads.expiresAt), gt(authOauthPayloads.expiresAt, now));

export async function upsertPayload(db: DbOrTx, row: typeof authOauthPayloads.$inferInsert): Promise<void> {
  await db
    .insert(authOauthPayloads)
    .values(row)
    .onConflictDoUpdate({
      target: [authOauthPayloads.model, authOauthPayloads.id],
      set: {
        payload: row.payload,
        grantId: row.grantId ?? null,
        userCode: row.userCode ?? null,
        uid: row.uid ?? null,
        expiresAt: row.expiresAt ?? null,
        consumedAt: null,
      },
    });
}

export async function findPayload(
  db: DbOrTx,
  model: string,
  id: string,
  now: Date,
): Promise<AuthOauthPayloadRow | undefined> {
  const [row] = await db
    .select()
    .from(authOauthPayloads)
    .where(and(eq(authOauthPayloads.model, model), eq(authOauthPayloads.id, id), live(now)))
    .limit(1);
  return row;
}

export async function findPayloadBy(
  db: DbOrTx,
  model: string,
  column: 'uid' | 'userCode',
  value: string,
  now: Date,
): Promise<AuthOauthPayloadRow | undefined> {
  const [row] = await db
    .select()
    .from(authOauthPayloads)
    .where(and(eq(authOauthPayloads.model, model), eq(authOauthPayloads[column], value), live(now)))
    .limit(1);
  return row;
}

export async function consumePayload(db: DbOrTx, model: string, id: string, at: Date): Promise<void> {
  await db
    .update(authOauthPayloads)
    .set({ consumedAt: at })
    .where(and(eq(authOauthPayloads.model, model), eq(authOauthPayloads.id, id)));
}

export async function deletePayload(db: DbOrTx, model: string, id: string): Promise<void> {
  await db
    .delete(authOauthPayloads)
    .where(and(eq(authOauthPayloads.model, model), eq(authOauthPayloads.id, id)));
}

/** The rows of one model (tokens, codes) issued under one grant. */
export async function deletePayloadsOfGrant(db: DbOrTx, model: string, grantId: string): Promise<void> {
  await db
    .delete(authOauthPayloads)
    .where(and(eq(authOauthPayloads.model, model), eq(authOauthPayloads.grantId, grantId)));
}

/**
 * Ties a grant to the Lumina session whose sign-in finished it (model `SessionGrant`, `uid` = the
 * session handle), so that ending the session ends the app's tokens too.
 */
export async function linkGrantToSession(
  db: DbOrTx,
  grantId: string,
  sessionHandle: string,
  expiresAt: Date,
) {
  await upsertPayload(db, {
    model: SESSION_GRANT_MODEL,
    id: `${sessionHandle}:${grantId}`,
    payload: {},
    grantId,
    uid: sessionHandle,
    expiresAt,
  });
}

export const SESSION_GRANT_MODEL = 'SessionGrant';

/** Removes every grant tied to these sessions with all it issued (tokens, codes); returns the grant ids. */
export async function deleteGrantsOfSessions(db: DbOrTx, handles: string[]): Promise<string[]> {
  if (handles.length === 0) return [];
  const links = await db
    .select({ grantId: authOauthPayloads.grantId })
    .from(authOauthPayloads)
    .where(and(eq(authOauthPayloads.model, SESSION_GRANT_MODEL), inArray(authOauthPayloads.uid, handles)));
  const grantIds = [...new Set(links.map((l) => l.grantId).filter((g): g is string => !!g))];
  if (grantIds.length === 0) return [];
  await db
    .delete(authOauthPayloads)
    .where(
      or(
        inArray(authOauthPayloads.grantId, grantIds),
        and(eq(authOauthPayloads.model, 'Grant'), inArray(authOauthPayloads.id, grantIds)),
      ),
    );
  return grantIds;
}

/** Rows whose expiry has passed; reads ignore them already, this only frees the space. */
export async function deleteExpiredPayloads(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(authOauthPayloads).where(lt(authOauthPayloads.expiresAt, now));
}

/** A secret by name, created with `create()` by the first process that asks (the others read that one). */
export async function secretOrCreate<T>(db: DbOrTx, name: string, create: () => T | Promise<T>, now: Date) {
  const read = async () =>
    (await db.select().from(authOauthSecrets).where(eq(authOauthSecrets.name, name)).limit(1))[0];
  const found = await read();
  if (found) return found.value as T;
  await db
    .insert(authOauthSecrets)
    .values({ name, value: await create(), createdAt: now })
    .onConflictDoNothing();
  return (await read())!.value as T;
}

export async function findSecret(db: DbOrTx, name: string) {
  return (await db.select().from(authOauthSecrets).where(eq(authOauthSecrets.name, name)).limit(1))[0];
}

/** Replaces a secret's value only if it is still `expected`; false when another process changed it first. */
export async function replaceSecret(
  db: DbOrTx,
  name: string,
  expected: unknown,
  next: unknown,
): Promise<boolean> {
  const rows = await db
    .update(authOauthSecrets)
    .set({ value: next })
    .where(
      and(
        eq(authOauthSecrets.name, name),
        sql`${authOauthSecrets.value} = ${JSON.stringify(expected)}::jsonb`,
      ),
    )
    .returning({ name: authOauthSecrets.name });
  return rows.length > 0;
}
