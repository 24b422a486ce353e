import { and, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authEmailVerificationTokens } from '../../db/schema/index.ts';

/** Queries on email-verification tokens. */

export async function insertVerificationToken(
  db: DbOrTx,
  values: typeof authEmailVerificationTokens.$inferInsert,
) {
  await db.insert(authEmailVerificationTokens).values(values);
}

/** Spends a token (single use): deletes and returns it when it exists and has not expired. */
export async function takeVerificationToken(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .delete(authEmailVerificationTokens)
    .where(
      and(
        eq(authEmailVerificationTokens.tokenHash, tokenHash),
        gt(authEmailVerificationTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}
