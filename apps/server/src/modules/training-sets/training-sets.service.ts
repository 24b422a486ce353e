import { randomUUID } from 'node:crypto';
import {
  TRAINING_MAX_PHOTOS,
  TRAINING_MIN_PHOTOS,
  TRAINING_MIN_SIDE,
  TRAINING_ZIP_MAX_ENTRIES,
  TRAINING_ZIP_MAX_UNPACKED_BYTES,
  type RefusedPhoto,
} from '@lumina/contracts';
import type { Storage } from '../../adapters/storage/index.ts';
import type { Database, Tx } from '../../db/client.ts';
import type { TrainingImageRow, TrainingSetRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { DAMAGED, normalisedExtension, normaliseUpload, type NormalisedImage } from '../uploads/normalise.ts';
import { checkUploadQuota } from '../uploads/upload-quota.ts';
import { lockUploadQuota } from '../uploads/uploads.repository.ts';
import { DUPLICATE_DISTANCE, hammingDistance, photoSignals, type PhotoSignals } from './photo-checks.ts';
import { photosInZip, tooLargeReason, type ZipItem } from './photo-zip.ts';
import type { TrainingUpload } from './training-form.ts';
import * as repo from './training-sets.repository.ts';

/** Where a set's files live: under the person's folder, one folder per set, so a set goes by prefix. */
export const trainingSetPrefix = (userId: string, setId: string) => `users/${userId}/training/${setId}/`;

/** A photo checked, normalised and written to storage; its row is written once the whole upload is known to be acceptable. */
interface AcceptedPhoto {
  id: string;
  filename: string;
  storageKey: string;
  thumbnailKey: string;
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  bytes: number;
  phash: string;
  hints: string[];
}

/** What an upload must satisfy once its files are checked, and what creates or locks its set. */
interface UploadRules {
  /** Photos the set may still take (the upload stops as soon as it has more usable ones). */
  room: number;
  tooMany(accepted: number): AppError;
  /** Throws when the accepted photos cannot make or extend the set. */
  judge(accepted: AcceptedPhoto[], refused: RefusedPhoto[]): void;
  /** In the transaction, before the rows: creates the set, or locks it and checks again. */
  before(tx: Tx, accepted: AcceptedPhoto[]): Promise<void>;
}

export interface UploadOutcome {
  set: TrainingSetRow;
  photos: TrainingImageRow[];
  refused: RefusedPhoto[];
}

const FILENAME_MAX_LENGTH = 200;

/** The name a file was sent under (a path, inside a zip) as a label: no control characters, bounded. */
function label(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]|\p{Cs}/gu, '').trim();
  return Array.from(clean || 'photo')
    .slice(0, FILENAME_MAX_LENGTH)
    .join('');
}

const notFound = () => new AppError('NOT_FOUND', 'No such training set.');
const invalid = (message: string) => new AppError('VALIDATION_FAILED', message);

/** "a.jpg (Too small: …); b.png (…)", the first few, for a refusal's detail. */
function listRefused(refused: RefusedPhoto[]): string {
  const shown = refused.slice(0, 8).map((r) => `${r.filename} (${r.reason.replace(/\.$/, '')})`);
  const more = refused.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
}

/**
 * Training sets (issue 12): a person's photos for training a model, each checked like any upload
 * (type from the bytes, size and pixel limits, upright, no metadata) and for training (big enough,
 * not a duplicate), with hints that do not refuse (blurry, no clear subject). Each usable photo's
 * files are written as it is checked; its row only once the whole upload is known to be acceptable.
 * A refusal deletes what was written: no set, no rows and no files are left.
 */
export class TrainingSetsService {
  private readonly db: Database;
  private readonly storage: Storage;
  private readonly maxBytes: number;
  private readonly maxPixels: number;
  private readonly heicMaxPixels?: number;
  private readonly quotaBytes: number;

  constructor(deps: {
    db: Database;
    storage: Storage;
    /** UPLOAD_MAX_BYTES: the largest photo. */
    maxBytes: number;
    maxPixels: number;
    heicMaxPixels?: number;
    /** UPLOAD_QUOTA_BYTES (training photos count as uploads). Unset: no quota. */
    quotaBytes?: number;
  }) {
    this.db = deps.db;
    this.storage = deps.storage;
    this.maxBytes = deps.maxBytes;
    this.maxPixels = deps.maxPixels;
    this.heicMaxPixels = deps.heicMaxPixels;
    this.quotaBytes = deps.quotaBytes ?? Number.POSITIVE_INFINITY;
  }

  /** The largest zip worth reading: a full set of the largest photos, and never more than a zip may unpack to. */
  get maxZipBytes(): number {
    return Math.min(TRAINING_MAX_PHOTOS * this.maxBytes, TRAINING_ZIP_MAX_UNPACKED_BYTES);
  }

  /** A new set from an upload (POST /api/upload_train_images). */
  async create(userId: string, upload: TrainingUpload): Promise<UploadOutcome> {
    const setId = randomUUID();
    return this.take(userId, setId, upload, [], {
      room: TRAINING_MAX_PHOTOS,
      tooMany: () =>
        invalid(
          `This upload has more than ${TRAINING_MAX_PHOTOS} usable photos; a training set holds at most ${TRAINING_MAX_PHOTOS}. Choose your best ${TRAINING_MAX_PHOTOS}.`,
        ),
      judge: (accepted, refused) => {
        if (accepted.length >= TRAINING_MIN_PHOTOS) return;
        const sent = accepted.length + refused.length;
        throw invalid(
          `Only ${accepted.length} of the ${sent} file${sent === 1 ? '' : 's'} sent ${accepted.length === 1 ? 'is a usable photo' : 'are usable photos'}, and a training set needs at least ${TRAINING_MIN_PHOTOS}.` +
            (refused.length > 0 ? ` Not used: ${listRefused(refused)}` : ''),
        );
      },
      before: (tx) => repo.insertSet(tx, { id: setId, userId }),
    });
  }

  /** More photos for a set (POST /api/training_sets/{id}/photos), up to TRAINING_MAX_PHOTOS in all. */
  async extend(userId: string, setId: string, upload: TrainingUpload): Promise<UploadOutcome> {
    const set = await repo.findSet(this.db, userId, setId);
    if (!set) throw notFound();
    const existing = await repo.photosOf(this.db, setId);
    if (existing.length >= TRAINING_MAX_PHOTOS) {
      throw invalid(
        `This set already has ${existing.length} photos, the most a set holds; remove some first.`,
      );
    }
    const tooMany = (count: number, adding: number) =>
      invalid(
        `This set has ${count} photos; adding ${adding} would make ${count + adding}, and a set holds at most ${TRAINING_MAX_PHOTOS}. Remove some or add fewer.`,
      );
    return this.take(userId, setId, upload, existing, {
      room: TRAINING_MAX_PHOTOS - existing.length,
      tooMany: (accepted) => tooMany(existing.length, accepted),
      judge: (accepted, refused) => {
        if (accepted.length === 0) throw invalid(`None of these files can be added: ${listRefused(refused)}`);
      },
      before: async (tx, accepted) => {
        // Checked again under the set's lock: another upload may have added photos meanwhile.
        if (!(await repo.lockSet(tx, userId, setId))) throw notFound();
        const count = await repo.countPhotos(tx, setId);
        if (count + accepted.length > TRAINING_MAX_PHOTOS) throw tooMany(count, accepted.length);
        await repo.touchSet(tx, setId);
      },
    });
  }

  async list(userId: string) {
    return repo.listSets(this.db, userId);
  }

  async get(userId: string, setId: string): Promise<{ set: TrainingSetRow; photos: TrainingImageRow[] }> {
    const set = await repo.findSet(this.db, userId, setId);
    if (!set) throw notFound();
    return { set, photos: await repo.photosOf(this.db, setId) };
  }

  /** For the training job: the set when `userId` owns it, with how many photos it has. */
  async ownedSet(userId: string, setId: string): Promise<{ id: string; photoCount: number } | undefined> {
    const set = await repo.findSet(this.db, userId, setId);
    if (!set) return undefined;
    return { id: set.id, photoCount: await repo.countPhotos(this.db, setId) };
  }

  /** Removes one photo and its files; the set as it now is. */
  async removePhoto(userId: string, setId: string, photoId: string) {
    const removed = await this.db.transaction(async (tx) => {
      if (!(await repo.lockSet(tx, userId, setId))) throw notFound();
      const row = await repo.deletePhoto(tx, setId, photoId);
      if (!row) throw new AppError('NOT_FOUND', 'No such photo in this training set.');
      await repo.touchSet(tx, setId);
      return row;
    });
    await Promise.all([this.storage.delete(removed.storageKey), this.storage.delete(removed.thumbnailKey)]);
    return this.get(userId, setId);
  }

  /** Deletes the set, its rows and its files. Models trained on it keep their recipe (set_id becomes null). */
  async remove(userId: string, setId: string): Promise<void> {
    if (!(await repo.deleteSet(this.db, userId, setId))) throw notFound();
    await this.storage.deletePrefix(trainingSetPrefix(userId, setId));
  }

  /**
   * Checks the upload's files in turn, writing each usable photo's files as it goes (so no more than
   * one photo is held decoded or normalised at a time), then writes the rows in one transaction. On
   * any refusal every file written is deleted: a refused upload leaves nothing behind.
   */
  private async take(
    userId: string,
    setId: string,
    upload: TrainingUpload,
    existing: TrainingImageRow[],
    rules: UploadRules,
  ): Promise<UploadOutcome> {
    const written: string[] = [];
    let checked;
    try {
      checked = await this.check(userId, setId, upload, existing, rules, written);
      rules.judge(checked.accepted, checked.refused);
      await this.insert(userId, setId, checked.accepted, rules);
    } catch (err) {
      await Promise.all(written.map((key) => this.storage.delete(key))).catch(() => undefined);
      throw err;
    }
    const { set, photos } = await this.get(userId, setId);
    return { set, photos, refused: checked.refused };
  }

  /** The upload's files one at a time: a photo's bytes (from the form or the zip) can go once it is checked. */
  private files(upload: TrainingUpload): AsyncIterable<ZipItem> {
    if (upload.zip) {
      return photosInZip(upload.zip.path, {
        maxEntries: TRAINING_ZIP_MAX_ENTRIES,
        // What a full set of the largest photos needs, as for the zip itself.
        maxUnpackedBytes: this.maxZipBytes,
        maxEntryBytes: this.maxBytes,
      });
    }
    const { photos } = upload;
    const maxBytes = this.maxBytes;
    return (async function* () {
      // Read from disk one at a time as they are checked, so no more than one is held at once.
      for (let next = photos.shift(); next; next = photos.shift()) {
        yield 'oversize' in next
          ? { name: next.filename, refused: tooLargeReason(next.oversize, maxBytes) }
          : { name: next.filename, bytes: await next.read() };
      }
    })();
  }

  /** Every file checked in turn; the photos kept (their files written, keys in `written`) and the files refused, with why. */
  private async check(
    userId: string,
    setId: string,
    upload: TrainingUpload,
    existing: TrainingImageRow[],
    rules: UploadRules,
    written: string[],
  ): Promise<{ accepted: AcceptedPhoto[]; refused: RefusedPhoto[] }> {
    const accepted: AcceptedPhoto[] = [];
    const refused: RefusedPhoto[] = [];
    const known = existing.map((p) => ({ filename: p.filename, phash: p.phash }));
    for await (const item of this.files(upload)) {
      const filename = label(item.name);
      if ('refused' in item) {
        refused.push({ filename, reason: item.refused });
        continue;
      }
      const result = await this.checkPhoto(userId, filename, item.bytes, [...known, ...accepted]);
      if ('reason' in result) {
        refused.push({ filename, reason: result.reason });
        continue;
      }
      // More usable photos than the set can take: no need to look at the rest.
      if (accepted.length + 1 > rules.room) throw rules.tooMany(accepted.length + 1);
      accepted.push(await this.write(userId, setId, filename, result, written));
    }
    return { accepted, refused };
  }

  private async checkPhoto(
    userId: string,
    filename: string,
    bytes: Buffer,
    others: Array<{ filename: string; phash: string }>,
  ): Promise<{ image: NormalisedImage; signals: PhotoSignals } | { reason: string }> {
    if (bytes.length === 0) return { reason: 'Empty file: choose it again.' };
    let image;
    try {
      image = await normaliseUpload(bytes, {
        owner: userId,
        maxPixels: this.maxPixels,
        heicMaxPixels: this.heicMaxPixels,
      });
    } catch (err) {
      // A busy server is not the photo's fault: the whole upload is answered 503 (or 429) to try again.
      if (err instanceof AppError && err.code === 'VALIDATION_FAILED') return { reason: err.userMessage };
      throw err;
    }
    const side = Math.min(image.width, image.height);
    if (side < TRAINING_MIN_SIDE) {
      return {
        reason: `Too small: ${image.width}×${image.height}; photos need at least ${TRAINING_MIN_SIDE} px on the short side.`,
      };
    }
    let signals;
    try {
      signals = await photoSignals(image.bytes, userId);
    } catch {
      return { reason: DAMAGED };
    }
    const twin = others.find((o) => hammingDistance(o.phash, signals.phash) <= DUPLICATE_DISTANCE);
    if (twin) return { reason: `Duplicate: the same photo as ${twin.filename}.` };
    return { image, signals };
  }

  /** Writes a checked photo and its thumbnail under the set's folder. */
  private async write(
    userId: string,
    setId: string,
    filename: string,
    { image, signals }: { image: NormalisedImage; signals: PhotoSignals },
    written: string[],
  ): Promise<AcceptedPhoto> {
    const id = randomUUID();
    const prefix = trainingSetPrefix(userId, setId);
    const storageKey = `${prefix}${id}.${normalisedExtension(image.contentType)}`;
    const thumbnailKey = `${prefix}${id}.thumb.webp`;
    written.push(storageKey, thumbnailKey);
    await Promise.all([
      this.storage.put(storageKey, image.bytes, { contentType: image.contentType }),
      this.storage.put(thumbnailKey, signals.thumbnail, { contentType: 'image/webp' }),
    ]);
    return {
      id,
      filename,
      storageKey,
      thumbnailKey,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      bytes: image.bytes.length,
      phash: signals.phash,
      hints: signals.hints,
    };
  }

  /**
   * The photos' rows in one transaction, after `rules.before` (which creates or locks the set), with
   * the upload quota checked under its lock so uploads at the same moment cannot together pass it.
   */
  private async insert(
    userId: string,
    setId: string,
    photos: AcceptedPhoto[],
    rules: UploadRules,
  ): Promise<void> {
    const adding = photos.reduce((sum, p) => sum + p.bytes, 0);
    await this.db.transaction(async (tx) => {
      await rules.before(tx, photos);
      if (Number.isFinite(this.quotaBytes)) {
        await lockUploadQuota(tx, userId);
        await checkUploadQuota(tx, userId, adding, this.quotaBytes);
      }
      // Explicit times, a millisecond apart: the set lists its photos in the order they were sent.
      const now = Date.now();
      await repo.insertPhotos(
        tx,
        photos.map((p, i) => ({
          id: p.id,
          setId,
          userId,
          filename: p.filename,
          storageKey: p.storageKey,
          thumbnailKey: p.thumbnailKey,
          contentType: p.contentType,
          width: p.width,
          height: p.height,
          bytes: p.bytes,
          phash: p.phash,
          hints: p.hints,
          createdAt: new Date(now + i),
        })),
      );
    });
  }
}
