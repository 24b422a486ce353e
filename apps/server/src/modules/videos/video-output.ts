import { randomUUID } from 'node:crypto';
import { posterFrame, probeVideo, VideoError } from '../../adapters/media/video.ts';
import { ProviderError } from '../../adapters/providers/text-to-image.ts';
import type { Storage } from '../../adapters/storage/index.ts';
import { provenanceOf, type OutputSigning } from '../images/output-signing.ts';
import type { OutputStore } from '../jobs/outputs.ts';
import { insertVideo } from './videos.repository.ts';

/** Where a user's video files live, beside their images. */
export const videoKeys = (userId: string, videoId: string) => ({
  video: `users/${userId}/videos/${videoId}.mp4`,
  poster: `users/${userId}/videos/${videoId}.poster.jpg`,
});

export interface StoredVideo {
  id: string;
  storageKey: string;
  posterKey: string;
  width: number;
  height: number;
  durationSeconds: number;
  bytes: number;
}

/**
 * A job's video: the MP4 probed (never trusting the vendor's claims), signed with C2PA content
 * credentials (animated from its source image, by which model and vendor) and stored with its poster
 * frame, so every download serves the signed file.
 */
export function videoOutput(deps: {
  storage: Storage;
  ffmpegPath: string;
  signing?: OutputSigning;
}): OutputStore<StoredVideo> {
  const { storage, ffmpegPath, signing } = deps;
  const discard = async (stored: StoredVideo) => {
    await Promise.all([storage.delete(stored.storageKey), storage.delete(stored.posterKey)]);
  };
  return {
    async store(job, result) {
      if (result.kind !== 'video') throw new Error(`job ${job.id} (${job.kind}) returned ${result.kind}`);
      let bytes = result.video.bytes;
      let probe, poster;
      try {
        probe = await probeVideo(ffmpegPath, bytes);
        poster = await posterFrame(ffmpegPath, bytes);
      } catch (err) {
        // A video we cannot read will not become readable on a retry: fail (and refund) at once.
        if (err instanceof VideoError)
          throw new ProviderError(err.message, 'rejected', err.userMessage, { cause: err });
        throw err;
      }
      // A container the signer cannot write into (not an MP4) is stored as it came, without credentials.
      if (signing)
        bytes = (await signing.credentials.sign(bytes, provenanceOf(job, signing.modelName))).bytes;
      const id = randomUUID();
      const keys = videoKeys(job.userId, id);
      const stored: StoredVideo = {
        id,
        storageKey: keys.video,
        posterKey: keys.poster,
        width: probe.width,
        height: probe.height,
        durationSeconds: probe.durationSeconds,
        bytes: bytes.length,
      };
      try {
        await storage.put(keys.video, bytes, { contentType: 'video/mp4' });
        await storage.put(keys.poster, poster, { contentType: 'image/jpeg' });
      } catch (err) {
        await discard(stored).catch(() => undefined);
        throw err;
      }
      return stored;
    },
    async insert(tx, job, stored, { fields }) {
      await insertVideo(tx, {
        id: stored.id,
        userId: job.userId,
        jobId: job.id,
        sourceImageId: fields.sourceImageId,
        storageKey: stored.storageKey,
        posterKey: stored.posterKey,
        contentType: 'video/mp4',
        width: stored.width,
        height: stored.height,
        durationSeconds: stored.durationSeconds,
        bytes: stored.bytes,
        prompt: fields.prompt,
        modelId: job.modelId,
        provider: job.provider,
        recipe: fields.recipe,
      });
    },
    discard,
    summary: (stored) => ({ video: stored.id }),
  };
}
