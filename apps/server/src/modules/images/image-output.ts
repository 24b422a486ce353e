import { randomUUID } from 'node:crypto';
import type { Storage } from '../../adapters/storage/index.ts';
import type { OutputStore } from '../jobs/outputs.ts';
import { deleteImageFiles, storeImageFiles, type StoredImageFiles } from './image-files.ts';
import { insertImages } from './images.repository.ts';

type StoredImages = Array<{ id: string; files: StoredImageFiles }>;

/** A job's images: originals and thumbnails stored, then one row each with how it was made. */
export function imageOutput(storage: Storage): OutputStore<StoredImages> {
  const discard = (stored: StoredImages) =>
    Promise.all(stored.map(({ files }) => deleteImageFiles(storage, files))).then(() => undefined);
  return {
    async store(job, result) {
      if (result.kind !== 'images') throw new Error(`job ${job.id} (${job.kind}) returned a ${result.kind}`);
      const stored: StoredImages = [];
      try {
        for (const image of result.images) {
          const id = randomUUID();
          stored.push({ id, files: await storeImageFiles(storage, job.userId, id, image.bytes) });
        }
        return stored;
      } catch (err) {
        await discard(stored).catch(() => undefined);
        throw err;
      }
    },
    async insert(tx, job, stored, { fields, seed, durationMs }) {
      const { sourceImageId: _source, ...recorded } = fields;
      await insertImages(
        tx,
        stored.map(({ id, files }, i) => ({
          id,
          userId: job.userId,
          jobId: job.id,
          kind: job.kind,
          ...files,
          ...recorded,
          modelId: job.modelId,
          provider: job.provider,
          seed: (seed + i) % 2 ** 32,
          durationMs,
        })),
      );
    },
    discard,
    summary: (stored) => ({ images: stored.map((s) => s.id) }),
  };
}
