import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { images, trainingImages } from '../../db/schema/index.ts';

/** Queries behind the upload quota. */

/**
 * Bytes of a person's stored uploads: images of kind "upload" (the gallery's and the tools' alike)
 * and training photos.
 */
export async function uploadedBytes(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({
      total:
        sql<number>`coalesce(sum(${images.bytes}), 0) + (select coalesce(sum(${trainingImages.bytes}), 0) from ${trainingImages} where ${trainingImages.userId} = ${userId})`.mapWith(
          Number,
        ),
    })
    .from(images)
    .where(and(eq(images.userId, userId), eq(images.kind, 'upload')));
  return row?.total ?? 0;
}

/** Serialises one person's quota check and insert across processes, until the transaction ends. */
export async function lockUploadQuota(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`upload-quota:${userId}`}))`);
}
