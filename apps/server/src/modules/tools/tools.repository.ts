import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { images, type ImageRow } from '../../db/schema/index.ts';

/** Drizzle queries for the image tools' inputs. */

/** The owner's images among `ids`, with their sizes (another person's image is simply not returned). */
export async function ownedImageSizes(db: DbOrTx, userId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: images.id, width: images.width, height: images.height })
    .from(images)
    .where(and(eq(images.userId, userId), inArray(images.id, ids)));
}

/** Images by id, whoever owns them (a job's sources, checked when the job was created). */
export async function imagesByIds(db: DbOrTx, ids: string[]): Promise<ImageRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(images).where(inArray(images.id, ids));
}
