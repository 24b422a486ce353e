import sharp from 'sharp';
import type { ProgressUpdate } from '../../adapters/providers/text-to-image.ts';
import type { Storage, StoredObject } from '../../adapters/storage/storage.ts';

/**
 * The latest live preview of each running job (ComfyUI's preview frames, AUTOMATIC1111's current
 * image): kept in our storage under a per-job key so an API process other than the worker that got it
 * can serve it, written at most once per `minGapMs` per job, and small (a large frame is re-encoded as
 * a JPEG of at most 512 px). The job row's `preview_at` says one exists; each frame has a key of its own
 * (`previews/<job>/<ms>`), so the signed URL the job view hands the browser changes with every frame and
 * a browser's `<img>` (which sends no session token) can load it.
 */
export class JobPreviews {
  private readonly lastWrite = new Map<string, number>();
  /** The frame before the last one: kept while browsers may still be loading it (see `save`). */
  private readonly previousWrite = new Map<string, number>();

  constructor(
    private readonly storage: Storage,
    private readonly minGapMs = 500,
  ) {}

  static key(jobId: string, at: Date): string {
    return `${JobPreviews.prefix(jobId)}${at.getTime()}`;
  }

  private static prefix(jobId: string): string {
    return `previews/${jobId}/`;
  }

  /** Stores the preview unless one was stored less than `minGapMs` ago; the time stored, or undefined. */
  async save(jobId: string, preview: NonNullable<ProgressUpdate['preview']>): Promise<Date | undefined> {
    const now = Date.now();
    const last = this.lastWrite.get(jobId);
    if (last !== undefined && now - last < this.minGapMs) return undefined;
    this.lastWrite.set(jobId, now);
    let { bytes, contentType } = preview;
    if (bytes.length > MAX_PREVIEW_BYTES || !ACCEPTED.has(contentType)) {
      bytes = await sharp(bytes)
        .resize(512, 512, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 70 })
        .toBuffer();
      contentType = 'image/jpeg';
    }
    const at = new Date(now);
    await this.storage.put(JobPreviews.key(jobId, at), bytes, { contentType });
    // The last frame stays until the next one: the row names it until the worker records this one, and
    // a browser handed its URL a moment ago may still be loading it. The one before goes (a missing one
    // is fine: idempotent).
    const older = this.previousWrite.get(jobId);
    if (last !== undefined) this.previousWrite.set(jobId, last);
    if (older !== undefined) await this.storage.delete(JobPreviews.key(jobId, new Date(older)));
    return at;
  }

  read(jobId: string, at: Date): Promise<StoredObject> {
    return this.storage.get(JobPreviews.key(jobId, at));
  }

  /** A short-lived signed URL of the frame stored at `at`, for the job view. */
  url(jobId: string, at: Date): Promise<string> {
    return this.storage.url(JobPreviews.key(jobId, at), { expiresInSeconds: PREVIEW_URL_SECONDS });
  }

  /** Forgets a job's previews: it ended, or moved to a vendor that has not sent one yet (idempotent). */
  async discard(jobId: string): Promise<void> {
    this.lastWrite.delete(jobId);
    this.previousWrite.delete(jobId);
    await this.storage.deletePrefix(JobPreviews.prefix(jobId));
  }
}

/** Long enough for a slow page to load a frame; the job view hands out a fresh URL with each change. */
const PREVIEW_URL_SECONDS = 600;
const MAX_PREVIEW_BYTES = 256 * 1024;
const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/webp']);
