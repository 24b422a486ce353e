import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { images, users } from '../../db/schema/index.ts';

/** Drizzle queries for seeding public examples; each takes the database or an open transaction. */

export async function countPublishedExamples(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(images)
    .where(eq(images.isExample, true));
  return row?.n ?? 0;
}

/** Which of these image ids exist already (published or not). */
export async function existingImageIds(db: DbOrTx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(inArray(images.id, [...ids]));
  return new Set(rows.map((r) => r.id));
}

/** The account that owns seeded examples: no email, so nobody can sign in as it. */
export async function ensureOwner(db: DbOrTx, id: string): Promise<void> {
  await db.insert(users).values({ id, email: null }).onConflictDoNothing();
}

/** Inserts one seeded example; false when another process inserted the same id first. */
export async function insertExample(db: DbOrTx, row: typeof images.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(images).values(row).onConflictDoNothing().returning({ id: images.id });
  return inserted.length > 0;
}
