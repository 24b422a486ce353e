import { and, eq, gt, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authSamlCodes, authSamlRequests } from '../../db/schema/index.ts';

/** Queries on SAML sign-ins under way (AuthnRequests sent) and the one-time codes they end in. */

export async function insertSamlRequest(db: DbOrTx, values: typeof authSamlRequests.$inferInsert) {
  // Old requests nobody answered go as new ones come.
  await db.delete(authSamlRequests).where(lt(authSamlRequests.expiresAt, values.createdAt));
  await db.insert(authSamlRequests).values(values);
}

/** A request still waiting for its response (not answered, not expired). */
export async function findSamlRequest(db: DbOrTx, id: string, now: Date) {
  const [row] = await db
    .select()
    .from(authSamlRequests)
    .where(and(eq(authSamlRequests.id, id), gt(authSamlRequests.expiresAt, now)));
  return row;
}

/** Spends a request (single use): deletes and returns it when it was still waiting. */
export async function takeSamlRequest(db: DbOrTx, id: string, now: Date) {
  const [row] = await db
    .delete(authSamlRequests)
    .where(and(eq(authSamlRequests.id, id), gt(authSamlRequests.expiresAt, now)))
    .returning();
  return row;
}

export async function insertSamlCode(db: DbOrTx, values: typeof authSamlCodes.$inferInsert, now: Date) {
  await db.delete(authSamlCodes).where(lt(authSamlCodes.expiresAt, now));
  await db.insert(authSamlCodes).values(values);
}

/** Spends a code (single use) of a tenant: deletes and returns it when it exists and has not expired. */
export async function takeSamlCode(db: DbOrTx, codeHash: string, tenantId: string, now: Date) {
  const [row] = await db
    .delete(authSamlCodes)
    .where(
      and(
        eq(authSamlCodes.codeHash, codeHash),
        eq(authSamlCodes.tenantId, tenantId),
        gt(authSamlCodes.expiresAt, now),
      ),
    )
    .returning();
  return row;
}
