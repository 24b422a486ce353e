/**
 * Reading a training upload: the `files` field repeated (photos), or once (a zip). Unlike the other
 * forms (modules/uploads/multipart.ts), a file field may repeat and a zip may be larger than a photo,
 * so each part is read here, straight to a file in a temporary folder: a photo up to the photo limit
 * (past it, only counted and refused by name), a zip whole, for yauzl to read by random access. No
 * file is held in memory while the form is read (30 photos at the photo limit would be 600 MB); a
 * photo is read back when it is checked, one at a time. The kind is decided by the file's first
 * bytes, never its name.
 */
import { open, mkdtemp, readFile, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import { TRAINING_MAX_PHOTOS, TRAINING_MIN_PHOTOS, TrainingUploadForm } from '@lumina/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { drain, formatBytes, fromParserError, skip, type MultipartSpec } from '../uploads/multipart.ts';

const FIELD = TrainingUploadForm.files[0];

export type ReceivedFile =
  /** A photo kept on disk: `read()` reads it from there when it is checked (see `spooledPhoto`). */
  | { filename: string; read(): Promise<Buffer> }
  /** A photo over the limit: not kept, only its size, to say so. */
  | { filename: string; oversize: number };

export interface TrainingUpload {
  /** The photos, in the order sent; empty when a zip was sent. */
  photos: ReceivedFile[];
  /** The zip, spooled to disk. */
  zip?: { filename: string; path: string };
  /** Deletes the spooled files (the photos and the zip). */
  dispose(): Promise<void>;
}

/**
 * A photo on disk whose bytes are read only when the service checks it; they are not kept here, so
 * each can be let go once checked.
 */
function spooledPhoto(filename: string, file: string): ReceivedFile {
  return { filename, read: () => readFile(file) };
}

export interface TrainingFormLimits {
  /** Largest photo (UPLOAD_MAX_BYTES). */
  maxPhotoBytes: number;
  /** Largest zip. */
  maxZipBytes: number;
}

const invalid = (message: string) => new AppError('VALIDATION_FAILED', message);

const tooManyFiles = () =>
  invalid(
    `This upload has more than ${TRAINING_MAX_PHOTOS} files; a training set holds at most ${TRAINING_MAX_PHOTOS} photos. Choose your best ${TRAINING_MAX_PHOTOS}.`,
  );

const onlyFiles = () => invalid(`This form takes files only: send the photos (or one zip) as "${FIELD}".`);

/** The parser's limits in this form's terms (the shared messages speak of the other forms' limits). */
function parserLimit(code: string | undefined): AppError | undefined {
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') return tooManyFiles();
  if (code === 'FST_FIELDS_LIMIT') return onlyFiles();
  return undefined;
}

/** A zip starts with a local file header (or, empty, with the end of its directory). */
const isZip = (head: Buffer) =>
  head.length >= 4 &&
  head[0] === 0x50 &&
  head[1] === 0x4b &&
  ((head[2] === 0x03 && head[3] === 0x04) || (head[2] === 0x05 && head[3] === 0x06));

/**
 * The whole form. Throws AppError: 415 when it is not multipart/form-data; 400 for another field, more
 * than TRAINING_MAX_PHOTOS files, photos mixed with a zip, more than one zip, or no file at all; 413
 * for a zip over `maxZipBytes`. The caller disposes of the result.
 */
export async function readTrainingUpload(
  request: FastifyRequest,
  limits: TrainingFormLimits,
): Promise<TrainingUpload> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the photos as multipart/form-data.');
  }
  const spec: MultipartSpec = { files: [FIELD], fields: [], maxBytes: limits.maxZipBytes };
  const photos: ReceivedFile[] = [];
  const zips: Array<{ filename: string; path: string }> = [];
  let folder: string | undefined;
  const dispose = async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  };
  let failure: AppError | undefined;
  let files = 0;

  try {
    const options = {
      // One more file than a set holds, so the parser itself stops a request with far more.
      limits: {
        files: TRAINING_MAX_PHOTOS + 1,
        fields: 5,
        parts: TRAINING_MAX_PHOTOS + 5,
        fileSize: limits.maxZipBytes,
      },
      // The cut-off is seen through `truncated` below (the parser's types omit this option of parts()).
      throwFileSizeLimit: false,
    };
    const parts = request.parts(options);
    for await (const part of parts) {
      if (failure) {
        await skip(part);
        continue;
      }
      if (part.type !== 'file' || part.fieldname !== FIELD) {
        failure = invalid(
          `"${part.fieldname}" is not a field of this form; send the photos (or one zip) as "${FIELD}".`,
        );
        await skip(part);
        continue;
      }
      if (++files > TRAINING_MAX_PHOTOS) {
        failure = tooManyFiles();
        await skip(part);
        continue;
      }
      folder ??= await mkdtemp(path.join(tmpdir(), 'lumina-training-'));
      const received = await receive(part, limits, path.join(folder, String(files)));
      if (received === 'empty') files--;
      else if ('zipPath' in received) zips.push({ filename: received.filename, path: received.zipPath });
      else photos.push(received);
    }
  } catch (err) {
    const mapped = parserLimit((err as { code?: string }).code) ?? fromParserError(err, spec);
    drain(request);
    await dispose();
    throw mapped ?? err;
  }
  if (!failure && files === 0) {
    failure = invalid(
      `Add ${TRAINING_MIN_PHOTOS} to ${TRAINING_MAX_PHOTOS} photos, or one zip of them, as "${FIELD}".`,
    );
  }
  if (!failure && zips.length > 0 && files > 1) {
    failure = invalid('Send either photos or one zip of them, not both and not several zips.');
  }
  if (failure) {
    drain(request);
    await dispose();
    throw failure;
  }
  return { photos, zip: zips[0], dispose };
}

/**
 * The form read (zip spooled to disk), used, and its temporary files deleted whatever happens. Every
 * route that takes training photos reads them this way (the training-set upload, the onboarding one).
 */
export async function withTrainingUpload<T>(
  request: FastifyRequest,
  limits: TrainingFormLimits,
  use: (upload: TrainingUpload) => Promise<T>,
): Promise<T> {
  const upload = await readTrainingUpload(request, limits);
  try {
    return await use(upload);
  } finally {
    await upload.dispose();
  }
}

/** One file part, written to `spoolPath`: a photo, a zip, or 'empty' for a file input left unchosen. */
async function receive(
  part: MultipartFile,
  limits: TrainingFormLimits,
  spoolPath: string,
): Promise<ReceivedFile | { filename: string; zipPath: string } | 'empty'> {
  let head = Buffer.alloc(0);
  let size = 0;
  let spool: FileHandle | undefined;
  let oversize = false;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (head.length < 4) head = Buffer.concat([head, chunk.subarray(0, 4 - head.length)]);
      if (oversize) continue;
      // A photo past the limit: what was written goes, and the rest is read (so the form goes on) but not kept.
      if (size > limits.maxPhotoBytes && !isZip(head)) {
        oversize = true;
        await spool?.close();
        spool = undefined;
        await rm(spoolPath, { force: true });
        continue;
      }
      spool ??= await open(spoolPath, 'wx');
      await spool.write(chunk);
    }
  } finally {
    await spool?.close();
  }
  if (part.file.truncated) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `${part.filename || 'A file'} is larger than ${formatBytes(limits.maxZipBytes)}, the most an upload of training photos may be.`,
    );
  }
  if (size === 0) {
    if (!part.filename) return 'empty';
    return { filename: part.filename, read: async () => Buffer.alloc(0) };
  }
  if (isZip(head)) return { filename: part.filename, zipPath: spoolPath };
  if (oversize) return { filename: part.filename, oversize: size };
  return spooledPhoto(part.filename, spoolPath);
}
