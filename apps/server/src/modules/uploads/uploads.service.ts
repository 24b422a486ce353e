import { randomUUID } from 'node:crypto';
import type { InputImage } from '../../adapters/providers/image-tools.ts';
import * as media from '../../adapters/media/media.ts';
import type { Storage } from '../../adapters/storage/index.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import { deleteImageFiles, imageKeys, type StoredImageFiles } from '../images/image-files.ts';
import { findImage, insertImages, type ImageWithFavorite } from '../images/images.repository.ts';
import type { IncomingFile } from './multipart.ts';
import { DAMAGED, normalisedExtension, normaliseUpload } from './normalise.ts';
import { checkUploadQuota } from './upload-quota.ts';
import { lockUploadQuota } from './uploads.repository.ts';

/** An upload checked, normalised and written to storage, but not yet an image row. */
export interface PreparedUpload {
  /** The image id its row will have. */
  id: string;
  /** The form field it came from (error messages name it). */
  field: string;
  /** As the client named it. */
  filename: string;
  files: StoredImageFiles;
  /** The normalised bytes, so a tool run need not read them back from storage. */
  image: InputImage;
}

export const UPLOAD_MODEL_ID = 'upload';
const FILENAME_MAX_LENGTH = 200;

/** The name a person gave the file, as a label: no folders, no control characters, at most 200 characters. */
export function filenameLabel(filename: string): string | null {
  const base = filename.split(/[/\\]/).at(-1) ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]|\p{Cs}/gu, '').trim();
  // Cut by code point: cutting a UTF-16 string can leave half a surrogate pair, which the database refuses.
  return clean ? Array.from(clean).slice(0, FILENAME_MAX_LENGTH).join('') : null;
}

/**
 * People's own images, uploaded: stored as a clean original (upright, no metadata) plus a WebP
 * thumbnail, and listed as images of kind "upload". Tools use the two steps separately: `prepare`
 * before their transaction (slow work, nothing in the database), then `insert` inside it, or `discard`
 * when it fails (e.g. not enough credits), so a refused request leaves nothing behind.
 */
export class UploadsService {
  private readonly db: Database;
  private readonly storage: Storage;
  private readonly maxPixels: number;
  private readonly heicMaxPixels?: number;
  private readonly jpegPassthrough: boolean;
  private readonly quotaBytes: number;

  constructor(deps: {
    db: Database;
    storage: Storage;
    maxPixels: number;
    /** The smaller limit of HEIC images (see PixelLimits). */
    heicMaxPixels?: number;
    /** UPLOAD_QUOTA_BYTES: the most one person's stored uploads may add up to. Unset: no quota. */
    quotaBytes?: number;
    /** See NormaliseOptions; off only to measure the re-encoding path (bench/upload.bench.ts). */
    jpegPassthrough?: boolean;
  }) {
    this.db = deps.db;
    this.storage = deps.storage;
    this.maxPixels = deps.maxPixels;
    this.heicMaxPixels = deps.heicMaxPixels;
    this.jpegPassthrough = deps.jpegPassthrough ?? true;
    this.quotaBytes = deps.quotaBytes ?? Number.POSITIVE_INFINITY;
  }

  /** Checks, normalises and stores one file. Errors name the field ("person_file: This file is not…"). */
  async prepare(userId: string, file: IncomingFile, field: string): Promise<PreparedUpload> {
    const named = (err: unknown) =>
      err instanceof AppError
        ? new AppError(err.code, `${field}: ${err.userMessage}`, {
            cause: err,
            retryAfterSeconds: err.retryAfterSeconds,
          })
        : err;

    let image;
    let thumbnail: Buffer;
    try {
      image = await normaliseUpload(file.bytes, {
        owner: userId,
        maxPixels: this.maxPixels,
        heicMaxPixels: this.heicMaxPixels,
        jpegPassthrough: this.jpegPassthrough,
      });
      try {
        thumbnail = await media.thumbnail(image.bytes);
      } catch (err) {
        throw new AppError('VALIDATION_FAILED', DAMAGED, { cause: err });
      }
      // Early, so a person over quota costs no storage writes; `insert` checks again under a lock.
      await checkUploadQuota(this.db, userId, image.bytes.length, this.quotaBytes);
    } catch (err) {
      throw named(err);
    }

    const id = randomUUID();
    const keys = imageKeys(userId, id, normalisedExtension(image.contentType));
    const files: StoredImageFiles = {
      storageKey: keys.original,
      thumbnailKey: keys.thumbnail,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      bytes: image.bytes.length,
    };
    const written = await Promise.allSettled([
      this.storage.put(keys.original, image.bytes, { contentType: image.contentType }),
      this.storage.put(keys.thumbnail, thumbnail, { contentType: 'image/webp' }),
    ]);
    const failed = written.find((w) => w.status === 'rejected');
    if (failed) {
      await deleteImageFiles(this.storage, files).catch(() => undefined);
      throw failed.reason;
    }
    return {
      id,
      field,
      filename: file.filename,
      files,
      image: { bytes: image.bytes, contentType: image.contentType, width: image.width, height: image.height },
    };
  }

  /**
   * The image rows for prepared uploads, in the caller's transaction. The quota is checked here again,
   * under a per-person lock held to the end of that transaction, so uploads made at the same moment
   * cannot together pass it; a refusal rolls the caller back and it discards the files.
   */
  async insert(tx: DbOrTx, userId: string, prepared: PreparedUpload[]): Promise<void> {
    if (prepared.length === 0) return;
    if (Number.isFinite(this.quotaBytes)) {
      await lockUploadQuota(tx, userId);
      const adding = prepared.reduce((sum, p) => sum + p.files.bytes, 0);
      await checkUploadQuota(tx, userId, adding, this.quotaBytes);
    }
    await insertImages(
      tx,
      prepared.map((p) => ({
        id: p.id,
        userId,
        kind: 'upload',
        storageKey: p.files.storageKey,
        thumbnailKey: p.files.thumbnailKey,
        contentType: p.files.contentType,
        width: p.files.width,
        height: p.files.height,
        bytes: p.files.bytes,
        prompt: filenameLabel(p.filename),
        modelId: UPLOAD_MODEL_ID,
        provider: UPLOAD_MODEL_ID,
      })),
    );
  }

  /** Deletes the files of prepared uploads whose rows will not be written. */
  async discard(prepared: PreparedUpload[]): Promise<void> {
    await Promise.all(prepared.map((p) => deleteImageFiles(this.storage, p.files)));
  }

  /** One upload, stored and listed (POST /api/images/upload). */
  async store(userId: string, file: IncomingFile, field = 'file'): Promise<ImageWithFavorite> {
    const prepared = await this.prepare(userId, file, field);
    try {
      await this.db.transaction((tx) => this.insert(tx, userId, [prepared]));
    } catch (err) {
      await this.discard([prepared]).catch(() => undefined);
      throw err;
    }
    const row = await findImage(this.db, prepared.id, userId);
    if (!row) throw new Error(`upload ${prepared.id} vanished right after it was stored`);
    return row;
  }
}
