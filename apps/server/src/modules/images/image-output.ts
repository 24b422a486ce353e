import { randomUUID } from 'node:crypto';
import type { ContentCredentials } from '../../adapters/c2pa/c2pa.ts';
import type { Storage } from '../../adapters/storage/index.ts';
import * as media from '../../adapters/media/media.ts';
import { provenanceOf, type OutputSigning } from './output-signing.ts';
import type { OutputStore } from '../jobs/outputs.ts';
import { deleteImageFiles, storeImageFiles, type StoredImageFiles } from './image-files.ts';
import { insertImages } from './images.repository.ts';

type StoredImages = Array<{ id: string; files: StoredImageFiles }>;

/** Signs an output; a format the signer does not cover is first made a lossless PNG of the same pixels. */
async function signOutput(
  credentials: ContentCredentials,
  bytes: Buffer,
  provenance: ReturnType<typeof provenanceOf>,
): Promise<Buffer> {
  const first = await credentials.sign(bytes, provenance);
  if (first.signed) return first.bytes;
  return (await credentials.sign(await media.losslessPng(bytes), provenance)).bytes;
}

/**
 * A job's images: originals (signed with C2PA content credentials before they are written, so every
 * download serves the signed file) and thumbnails stored, then one row each with how it was made.
 */
export function imageOutput(storage: Storage, signing?: OutputSigning): OutputStore<StoredImages> {
  const discard = (stored: StoredImages) =>
    Promise.all(stored.map(({ files }) => deleteImageFiles(storage, files))).then(() => undefined);
  return {
    async store(job, result) {
      if (result.kind !== 'images') throw new Error(`job ${job.id} (${job.kind}) returned a ${result.kind}`);
      const stored: StoredImages = [];
      try {
        const provenance = signing && provenanceOf(job, signing.modelName);
        for (const image of result.images) {
          const id = randomUUID();
          const bytes = provenance
            ? await signOutput(signing.credentials, image.bytes, provenance)
            : image.bytes;
          stored.push({ id, files: await storeImageFiles(storage, job.userId, id, bytes) });
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
