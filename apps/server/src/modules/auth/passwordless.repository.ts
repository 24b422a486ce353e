import { and, eq, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { authPasswordlessCodes, authPasswordlessDevices } from '../../db/schema/index.ts';

/** Queries on passwordless login attempts (devices) and their codes. */

export async function insertDevice(db: DbOrTx, values: typeof authPasswordlessDevices.$inferInsert) {
  await db.insert(authPasswordlessDevices).values(values);
}

export async function insertCode(db: DbOrTx, values: typeof authPasswordlessCodes.$inferInsert) {
  await db.insert(authPasswordlessCodes).values(values);
}

/** The device, locked so concurrent wrong guesses are all counted. */
export async function lockDevice(db: DbOrTx, preAuthSessionId: string) {
  const [row] = await db
    .select()
    .from(authPasswordlessDevices)
    .where(eq(authPasswordlessDevices.preAuthSessionId, preAuthSessionId))
    .for('update')
    .limit(1);
  return row;
}

export async function findDevice(db: DbOrTx, preAuthSessionId: string) {
  const [row] = await db
    .select()
    .from(authPasswordlessDevices)
    .where(eq(authPasswordlessDevices.preAuthSessionId, preAuthSessionId))
    .limit(1);
  return row;
}

export async function codesOf(db: DbOrTx, preAuthSessionId: string) {
  return db
    .select()
    .from(authPasswordlessCodes)
    .where(eq(authPasswordlessCodes.preAuthSessionId, preAuthSessionId));
}

export async function findCodeByLinkHash(db: DbOrTx, linkCodeHash: string) {
  const [row] = await db
    .select({ code: authPasswordlessCodes, device: authPasswordlessDevices })
    .from(authPasswordlessCodes)
    .innerJoin(
      authPasswordlessDevices,
      eq(authPasswordlessDevices.preAuthSessionId, authPasswordlessCodes.preAuthSessionId),
    )
    .where(eq(authPasswordlessCodes.linkCodeHash, linkCodeHash))
    .limit(1);
  return row;
}

export async function setFailedAttempts(db: DbOrTx, preAuthSessionId: string, failedAttempts: number) {
  await db
    .update(authPasswordlessDevices)
    .set({ failedAttempts })
    .where(eq(authPasswordlessDevices.preAuthSessionId, preAuthSessionId));
}

export async function deleteDevice(db: DbOrTx, preAuthSessionId: string) {
  await db
    .delete(authPasswordlessDevices)
    .where(eq(authPasswordlessDevices.preAuthSessionId, preAuthSessionId));
}

/** After a successful sign-in every open attempt for the same address in the tenant ends. */
export async function deleteDevicesForContact(
  db: DbOrTx,
  tenantId: string,
  contact: { email: string | null; phoneNumber: string | null },
) {
  const match = contact.email
    ? sql`lower(${authPasswordlessDevices.email}) = lower(${contact.email})`
    : eq(authPasswordlessDevices.phoneNumber, contact.phoneNumber ?? '');
  await db.delete(authPasswordlessDevices).where(and(eq(authPasswordlessDevices.tenantId, tenantId), match));
}

export async function deleteDevicesCreatedBefore(db: DbOrTx, before: Date) {
  await db.delete(authPasswordlessDevices).where(lt(authPasswordlessDevices.createdAt, before));
}
