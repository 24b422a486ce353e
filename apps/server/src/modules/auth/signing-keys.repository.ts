import { desc, gt } from 'drizzle-orm';
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
