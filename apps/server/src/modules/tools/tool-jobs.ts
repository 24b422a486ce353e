import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { InputImage, ToolRequest } from '../../adapters/providers/image-tools.ts';
import type { ToolRegistry } from '../../adapters/providers/tools-catalogue.ts';
import { ProviderError } from '../../adapters/providers/text-to-image.ts';
import { posterFrame, probeVideo, VideoError } from '../../adapters/media/video.ts';
import type { Storage } from '../../adapters/storage/index.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { images, videos, type JobRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { wireRecipe, type ToolJobInput } from './tool-recipe.ts';

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
 * The worker's side of the image tools: which adapter runs a tool job, the provider request built
 * from the stored recipe and source images, and storing a finished video with its poster frame.
 */
export class ToolJobs {
  constructor(
    private readonly deps: { db: Database; storage: Storage; registry: ToolRegistry; ffmpegPath: string },
  ) {}

  /** The adapter for a job's model; a readable AppError when it is no longer available. */
  resolve(job: JobRow) {
    const resolved = this.deps.registry.byId(job.modelId);
    if (!resolved) throw new AppError('VALIDATION_FAILED', 'This tool model is no longer available.');
    return resolved;
  }

  adapter(provider: string) {
    return this.deps.registry.adapter(provider as 'local');
  }

  /** The provider request, with the source images read back from storage. */
  async request(job: JobRow): Promise<ToolRequest> {
    const input = job.input as unknown as ToolJobInput;
    const sources = await this.loadSources(input.sourceImageIds);
    const common = { providerModel: job.providerModel, seed: input.seed };
    switch (input.tool) {
      case 'edit':
        return {
          ...common,
          tool: 'edit',
          image: sources[0]!,
          prompt: input.prompt ?? '',
          negativePrompt: input.negativePrompt ?? undefined,
          strength: input.strength ?? 0.6,
        };
      case 'copy_style':
        return { ...common, tool: 'copy_style', style: sources[0]!, description: input.description ?? '' };
      case 'product_holding':
        return {
          ...common,
          tool: 'product_holding',
          person: sources[0]!,
          product: sources[1]!,
          aspectRatio: input.aspectRatio ?? '1:1',
          width: input.width ?? 1024,
          height: input.height ?? 1024,
          prompt: input.prompt ?? undefined,
        };
      case 'upscale':
        return { ...common, tool: 'upscale', image: sources[0]!, factor: input.factor ?? 2 };
      case 'animate':
        return {
          ...common,
          tool: 'animate',
          image: sources[0]!,
          prompt: input.prompt ?? undefined,
          durationSeconds: input.durationSeconds ?? 5,
        };
    }
  }

  /** Fields every output image of a tool job carries: the words and the recipe. */
  imageFields(job: JobRow) {
    const input = job.input as unknown as ToolJobInput;
    return {
      prompt: input.prompt ?? input.description,
      negativePrompt: input.negativePrompt,
      loraScale: null,
      promptStrength: input.strength,
      recipe: wireRecipe(input) as Record<string, unknown>,
    };
  }

  /** Probes the MP4 (never trusting the vendor's claims), makes the poster and stores both. */
  async storeVideo(job: JobRow, bytes: Buffer): Promise<StoredVideo> {
    const { storage, ffmpegPath } = this.deps;
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
    const id = randomUUID();
    const keys = videoKeys(job.userId, id);
    await storage.put(keys.video, bytes, { contentType: 'video/mp4' });
    await storage.put(keys.poster, poster, { contentType: 'image/jpeg' });
    return {
      id,
      storageKey: keys.video,
      posterKey: keys.poster,
      width: probe.width,
      height: probe.height,
      durationSeconds: probe.durationSeconds,
      bytes: bytes.length,
    };
  }

  async insertVideo(tx: DbOrTx, job: JobRow, stored: StoredVideo) {
    const input = job.input as unknown as ToolJobInput;
    await tx.insert(videos).values({
      id: stored.id,
      userId: job.userId,
      jobId: job.id,
      sourceImageId: input.sourceImageIds[0] ?? null,
      storageKey: stored.storageKey,
      posterKey: stored.posterKey,
      contentType: 'video/mp4',
      width: stored.width,
      height: stored.height,
      durationSeconds: stored.durationSeconds,
      bytes: stored.bytes,
      prompt: input.prompt,
      modelId: job.modelId,
      provider: job.provider,
      recipe: wireRecipe(input) as Record<string, unknown>,
    });
  }

  async deleteVideoFiles(stored: Pick<StoredVideo, 'storageKey' | 'posterKey'>) {
    await Promise.all([
      this.deps.storage.delete(stored.storageKey),
      this.deps.storage.delete(stored.posterKey),
    ]);
  }

  private async loadSources(ids: string[]): Promise<InputImage[]> {
    const rows = ids.length ? await this.deps.db.select().from(images).where(inArray(images.id, ids)) : [];
    return Promise.all(
      ids.map(async (id) => {
        const row = rows.find((r) => r.id === id);
        if (!row) {
          throw new ProviderError(
            `source image ${id} is gone`,
            'rejected',
            'A source image was deleted before the job could start.',
          );
        }
        const object = await this.deps.storage.get(row.storageKey);
        return {
          bytes: Buffer.concat(await object.body.toArray()),
          contentType: row.contentType,
          width: row.width,
          height: row.height,
        };
      }),
    );
  }
}
