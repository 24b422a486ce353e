import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  trainingImages,
  trainingSets,
  type TrainingImageRow,
  type TrainingSetRow,
} from '../../db/schema/index.ts';

/** Queries for training sets and their photos; every read is scoped to the owner. */

export type NewTrainingImage = typeof trainingImages.$inferInsert;

export async function insertSet(db: DbOrTx, set: { id: string; userId: string }): Promise<void> {
  await db.insert(trainingSets).values(set);
}

export async function insertPhotos(db: DbOrTx, rows: NewTrainingImage[]): Promise<void> {
  if (rows.length > 0) await db.insert(trainingImages).values(rows);
}

/** The set when `userId` owns it. */
export async function findSet(
  db: DbOrTx,
  userId: string,
  setId: string,
): Promise<TrainingSetRow | undefined> {
  const [row] = await db
    .select()
    .from(trainingSets)
    .where(and(eq(trainingSets.id, setId), eq(trainingSets.userId, userId)));
  return row;
}

/**
 * The set, locked until the transaction ends, when `userId` owns it: two extensions at once cannot
 * together pass the photo limit.
 */
export async function lockSet(
  tx: DbOrTx,
  userId: string,
  setId: string,
): Promise<TrainingSetRow | undefined> {
  const [row] = await tx
    .select()
    .from(trainingSets)
    .where(and(eq(trainingSets.id, setId), eq(trainingSets.userId, userId)))
    .for('update');
  return row;
}

export async function touchSet(db: DbOrTx, setId: string): Promise<void> {
  await db
    .update(trainingSets)
    .set({ updatedAt: sql`now()` })
    .where(eq(trainingSets.id, setId));
}

/** A set's photos, oldest first (the order they were added). */
export async function photosOf(db: DbOrTx, setId: string): Promise<TrainingImageRow[]> {
  return db
    .select()
    .from(trainingImages)
    .where(eq(trainingImages.setId, setId))
    .orderBy(asc(trainingImages.createdAt), asc(trainingImages.id));
}

export async function countPhotos(db: DbOrTx, setId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(trainingImages).where(eq(trainingImages.setId, setId));
  return row?.n ?? 0;
}

/** A person's sets with their photos, newest set first. */
export async function listSets(
  db: DbOrTx,
  userId: string,
): Promise<Array<{ set: TrainingSetRow; photos: TrainingImageRow[] }>> {
  const sets = await db
    .select()
    .from(trainingSets)
    .where(eq(trainingSets.userId, userId))
    .orderBy(desc(trainingSets.createdAt), desc(trainingSets.id));
  if (sets.length === 0) return [];
  const photos = await db
    .select()
    .from(trainingImages)
    .where(
      and(
        eq(trainingImages.userId, userId),
        inArray(
          trainingImages.setId,
          sets.map((s) => s.id),
        ),
      ),
    )
    .orderBy(asc(trainingImages.createdAt), asc(trainingImages.id));
  return sets.map((set) => ({ set, photos: photos.filter((p) => p.setId === set.id) }));
}

/** Deletes one photo of the set; the deleted row, or undefined when there was none. */
export async function deletePhoto(
  db: DbOrTx,
  setId: string,
  photoId: string,
): Promise<TrainingImageRow | undefined> {
  const [row] = await db
    .delete(trainingImages)
    .where(and(eq(trainingImages.id, photoId), eq(trainingImages.setId, setId)))
    .returning();
  return row;
}

/** Deletes the set (its photo rows go with it); false when `userId` has no such set. */
export async function deleteSet(db: DbOrTx, userId: string, setId: string): Promise<boolean> {
  const rows = await db
    .delete(trainingSets)
    .where(and(eq(trainingSets.id, setId), eq(trainingSets.userId, userId)))
    .returning({ id: trainingSets.id });
  return rows.length > 0;
}
