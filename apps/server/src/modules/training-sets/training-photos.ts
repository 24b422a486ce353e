import { buffer } from 'node:stream/consumers';
import type { InputImage } from '../../adapters/providers/image-tools.ts';
import type { Storage } from '../../adapters/storage/index.ts';
import type { DbOrTx } from '../../db/client.ts';
import { findSet, photosOf } from './training-sets.repository.ts';

/**
 * A set's photos as a trainer receives them (the training job calls this), in the order they were
 * added, and the first one's thumbnail as the model's cover until it has images of its own.
 * Undefined when `userId` has no such set.
 */
export async function loadTrainingPhotos(
  deps: { db: DbOrTx; storage: Storage },
  userId: string,
  setId: string,
): Promise<{ photos: InputImage[]; coverKey: string | null } | undefined> {
  const set = await findSet(deps.db, userId, setId);
  if (!set) return undefined;
  const rows = await photosOf(deps.db, setId);
  // One at a time: a set of 30 large photos is read in turn rather than all opened at once.
  const photos: InputImage[] = [];
  for (const row of rows) {
    const stored = await deps.storage.get(row.storageKey);
    photos.push({
      bytes: await buffer(stored.body),
      contentType: row.contentType,
      width: row.width,
      height: row.height,
    });
  }
  return { photos, coverKey: rows[0]?.thumbnailKey ?? null };
}
