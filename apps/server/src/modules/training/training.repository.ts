import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { trainedModels, trainingImages, trainingSets, type TrainedModelRow } from '../../db/schema/index.ts';

export type NewTrainedModel = typeof trainedModels.$inferInsert;

/** A user's set as training needs it: how many photos, and one thumbnail as the model's cover. */
export async function setSummary(db: DbOrTx, userId: string, setId: string) {
  const [set] = await db
    .select({ id: trainingSets.id })
    .from(trainingSets)
    .where(and(eq(trainingSets.id, setId), eq(trainingSets.userId, userId)));
  if (!set) return undefined;
  const [counted] = await db
    .select({ n: count() })
    .from(trainingImages)
    .where(eq(trainingImages.setId, setId));
  const [first] = await db
    .select({ key: trainingImages.thumbnailKey })
    .from(trainingImages)
    .where(eq(trainingImages.setId, setId))
    .orderBy(asc(trainingImages.createdAt), asc(trainingImages.id))
    .limit(1);
  return { photoCount: counted?.n ?? 0, coverKey: first?.key ?? null };
}

export async function insertTrainedModel(tx: DbOrTx, values: NewTrainedModel): Promise<TrainedModelRow> {
  const [row] = await tx.insert(trainedModels).values(values).returning();
  return row!;
}

export function listUserModels(db: DbOrTx, userId: string) {
  return db
    .select()
    .from(trainedModels)
    .where(eq(trainedModels.userId, userId))
    .orderBy(desc(trainedModels.createdAt), desc(trainedModels.id));
}

export function readyUserModels(db: DbOrTx, userId: string) {
  return db
    .select()
    .from(trainedModels)
    .where(and(eq(trainedModels.userId, userId), eq(trainedModels.status, 'ready')))
    .orderBy(asc(trainedModels.createdAt), asc(trainedModels.id));
}

export async function findUserModel(db: DbOrTx, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(trainedModels)
    .where(and(eq(trainedModels.id, id), eq(trainedModels.userId, userId)));
  return row;
}

export async function findModel(db: DbOrTx, id: string) {
  const [row] = await db.select().from(trainedModels).where(eq(trainedModels.id, id));
  return row;
}

/** A training's model becomes ready, once: only a model still training changes. */
export async function markReady(
  tx: DbOrTx,
  id: string,
  fields: Pick<
    TrainedModelRow,
    'weightsKey' | 'weightsContentType' | 'providerModel' | 'durationMs' | 'coverKey'
  >,
) {
  const [row] = await tx
    .update(trainedModels)
    .set({ ...fields, status: 'ready', error: null, updatedAt: new Date() })
    .where(and(eq(trainedModels.id, id), eq(trainedModels.status, 'training')))
    .returning();
  return row;
}

/** A training that failed or was cancelled: only a model still training changes. */
export async function markEnded(
  tx: DbOrTx,
  id: string,
  status: 'failed' | 'cancelled',
  error: string | null,
) {
  await tx
    .update(trainedModels)
    .set({ status, error, updatedAt: new Date() })
    .where(and(eq(trainedModels.id, id), eq(trainedModels.status, 'training')));
}

export async function renameUserModel(db: DbOrTx, userId: string, id: string, name: string) {
  const [row] = await db
    .update(trainedModels)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(trainedModels.id, id), eq(trainedModels.userId, userId)))
    .returning();
  return row;
}

export async function deleteUserModel(db: DbOrTx, userId: string, id: string) {
  const [row] = await db
    .delete(trainedModels)
    .where(and(eq(trainedModels.id, id), eq(trainedModels.userId, userId)))
    .returning();
  return row;
}
