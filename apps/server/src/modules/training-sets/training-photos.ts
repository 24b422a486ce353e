/**
 * Minimal stand-in (the training-sets helper's version replaces it at merge): a set's photos, read
 * back from storage for a trainer.
 */
import type { InputImage } from '../../adapters/providers/image-tools.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { DbOrTx } from '../../db/client.ts';
import { setPhotos } from './training-photos.repository.ts';

/** The user's set's photos and a cover (its first thumbnail); undefined when the set is not theirs. */
export async function loadTrainingPhotos(
  deps: { db: DbOrTx; storage: Storage },
  userId: string,
  setId: string,
): Promise<{ photos: InputImage[]; coverKey: string | null } | undefined> {
  const rows = await setPhotos(deps.db, userId, setId);
  if (!rows) return undefined;
  const photos = await Promise.all(
    rows.map(async (row) => {
      const object = await deps.storage.get(row.storageKey);
      return {
        bytes: Buffer.concat(await object.body.toArray()),
        contentType: row.contentType,
        width: row.width,
        height: row.height,
      };
    }),
  );
  return { photos, coverKey: rows[0]?.thumbnailKey ?? null };
}
