import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { TestEnv } from '../../../test/harness.ts';
import { createImage } from '../../../test/factories.ts';
import type { DbOrTx } from '../../db/client.ts';
import { jobs, purchases, trainingImages, trainingSets, type PurchaseRow } from '../../db/schema/index.ts';
import type { ShootPipeline } from './purchase-pipeline.ts';

/**
 * A stand-in for the delivering side (shoot-pipeline.ts, engineer A2) while buying is tested alone:
 * it records each call and moves a purchase that has its photos on to `training`, the way the real
 * pipeline's first stage does, so tests see a start happen once.
 */
export function recordingPipeline(): ShootPipeline & { calls: Array<{ id: string; status: string }> } {
  const calls: Array<{ id: string; status: string }> = [];
  return {
    calls,
    async start(tx: DbOrTx, purchase: PurchaseRow) {
      calls.push({ id: purchase.id, status: purchase.status });
      if (!purchase.setId) return;
      await tx
        .update(purchases)
        .set({ status: 'training', updatedAt: sql`now()` })
        .where(and(eq(purchases.id, purchase.id), eq(purchases.status, 'waiting_for_photos')));
    },
  };
}

/** A training set of `photos` photo rows owned by `userId` (the files are not read by buying). */
export async function createPhotoSet(env: TestEnv, userId: string, photos = 5): Promise<string> {
  const { db } = env.container.database;
  const setId = randomUUID();
  await db.insert(trainingSets).values({ id: setId, userId });
  for (let i = 0; i < photos; i++) {
    await db.insert(trainingImages).values({
      setId,
      userId,
      filename: `photo-${i}.jpg`,
      storageKey: `users/${userId}/training/${setId}/${i}.jpg`,
      thumbnailKey: `users/${userId}/training/${setId}/${i}.thumb.webp`,
      contentType: 'image/jpeg',
      width: 768,
      height: 640,
      bytes: 1000,
      phash: `${i}`.padStart(16, '0'),
    });
  }
  return setId;
}

/** A succeeded generation of the purchase with `count` stored images, as the pipeline leaves it. */
export async function deliverImages(env: TestEnv, userId: string, purchaseId: string, count: number) {
  const { db } = env.container.database;
  const jobId = randomUUID();
  await db.insert(jobs).values({
    id: jobId,
    userId,
    kind: 'text-to-image',
    status: 'succeeded',
    modelId: 'local-aurora',
    provider: 'local',
    providerModel: 'local-aurora',
    input: { prompt: 'a headshot' },
    numImages: count,
    cost: 0,
    purchaseId,
  });
  const made = [];
  for (let i = 0; i < count; i++)
    made.push(await createImage(env, userId, { jobId, color: i % 2 ? '#aa3311' : '#1133aa' }));
  return made;
}
