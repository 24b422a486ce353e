import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authSigningKeys, type AuthSigningKeyRow } from '../../db/schema/index.ts';

/** Queries on the access-token signing keys. */

/** Keys still accepted at `now`, newest first. */
export function findKeysVerifyingAfter(db: DbOrTx, now: Date): Promise<AuthSigningKeyRow[]> {
  return db
    .select()
    .from(authSigningKeys)
    .where(gt(authSigningKeys.verifyUntil, now))
    .orderBy(desc(authSigningKeys.createdAt));
}

export async function insertSigningKey(db: DbOrTx, key: typeof authSigningKeys.$inferInsert): Promise<void> {
  await db.insert(authSigningKeys).values(key);
}

/** Every stored key, expired ones too (start-up encrypts them all). */
export function findAllSigningKeys(db: DbOrTx): Promise<AuthSigningKeyRow[]> {
  return db.select().from(authSigningKeys).orderBy(desc(authSigningKeys.createdAt));
}

/** Replaces a key's stored private JWK if it still holds `expected`; whether it did. */
export async function replacePrivateJwk(
  db: DbOrTx,
  kid: string,
  expected: Record<string, unknown>,
  next: Record<string, unknown>,
): Promise<boolean> {
  const rows = await db
    .update(authSigningKeys)
    .set({ privateJwk: next })
    .where(
      and(
        eq(authSigningKeys.kid, kid),
        sql`${authSigningKeys.privateJwk} = ${JSON.stringify(expected)}::jsonb`,
      ),
    )
    .returning({ kid: authSigningKeys.kid });
  return rows.length > 0;
}
