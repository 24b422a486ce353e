import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { trainingImages, trainingSets } from '../../db/schema/index.ts';

/** A set's photos, oldest first, when the set is the user's (undefined otherwise). */
export async function setPhotos(db: DbOrTx, userId: string, setId: string) {
  const [set] = await db
    .select({ id: trainingSets.id })
    .from(trainingSets)
    .where(and(eq(trainingSets.id, setId), eq(trainingSets.userId, userId)));
  if (!set) return undefined;
  return db
    .select()
    .from(trainingImages)
    .where(and(eq(trainingImages.setId, setId), eq(trainingImages.userId, userId)))
    .orderBy(asc(trainingImages.createdAt), asc(trainingImages.id));
}
