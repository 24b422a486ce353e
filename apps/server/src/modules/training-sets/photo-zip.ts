/**
 * The photos inside a zip, read without trusting it. yauzl refuses entry names that climb out
 * (`../`, also written with Windows backslashes) or are absolute, and checks each entry's inflated size against its header; on top of that
 * the entry count and the total declared size are checked from the central directory before any byte
 * is inflated, and the bytes actually inflated are counted as they come, so a zip that lies in its
 * headers stops at the cap too. Entries are inflated one at a time, when the caller asks for the next,
 * and only once their first bytes show an image: a zip of 100 entries of 5 MB of zeros each was
 * inflated whole (500 MB, ~2 CPU-seconds) only to be refused entry by entry as "not an image".
 */
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { constants, inflateRawSync } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { AppError } from '../../errors.ts';
import { formatBytes } from '../uploads/multipart.ts';
import { NOT_AN_IMAGE } from '../uploads/normalise.ts';
import { sniffImageType, sniffLength } from '../uploads/sniff.ts';

export interface ZipLimits {
  maxEntries: number;
  /** Bytes all entries together may inflate to. */
  maxUnpackedBytes: number;
  /** Bytes one photo may have (larger ones are refused by name, not inflated). */
  maxEntryBytes: number;
}

/** Bytes inflated from uploaded zips since the process started (for tests and diagnostics). */
let inflatedTotal = 0;
export const zipInflatedBytes = () => inflatedTotal;

/** A file from the zip: its bytes, or why it was not read. */
export type ZipItem = { name: string; bytes: Buffer } | { name: string; refused: string };

const ARCHIVE = /\.(zip|rar|7z|tar|gz|tgz|bz2|xz|zst|cab|iso|dmg|jar)$/i;
/** What operating systems add to a zip by themselves, never photos. */
const SYSTEM_FILES = new Set(['thumbs.db', 'desktop.ini']);

/** Folders, macOS resource forks (`__MACOSX/`), dotfiles and system files: not a person's photos. */
function ignored(name: string): boolean {
  if (name.endsWith('/')) return true;
  const segments = name.split('/');
  if (segments[0] === '__MACOSX') return true;
  if (segments.some((s) => s.startsWith('.'))) return true;
  return SYSTEM_FILES.has(segments.at(-1)!.toLowerCase());
}

const wholeZip = (code: 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE', message: string, cause?: unknown) =>
  new AppError(code, message, { cause });

/** yauzl's complaints, as sentences: a bad name or a broken structure refuses the whole zip. */
function unreadable(err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err);
  if (/^(absolute path|invalid relative path)/.test(message)) {
    return wholeZip(
      'VALIDATION_FAILED',
      'This zip has a file whose path leaves the zip (an absolute path or "../"); nothing in it was used. Zip the photos again from their folder.',
      err,
    );
  }
  if (/too many bytes|not enough bytes|expected .* bytes/i.test(message)) {
    return wholeZip(
      'VALIDATION_FAILED',
      'This zip unpacks to sizes other than the ones it declares; nothing in it was used. Zip the photos again.',
      err,
    );
  }
  return wholeZip(
    'VALIDATION_FAILED',
    'This zip is damaged or is not a zip we can read; nothing in it was used. Zip the photos again.',
    err,
  );
}

function tooBig(limits: ZipLimits): AppError {
  return wholeZip(
    'PAYLOAD_TOO_LARGE',
    `This zip unpacks to more than ${formatBytes(limits.maxUnpackedBytes)}; nothing in it was used. Send at most ${limits.maxEntries} photos of normal size.`,
  );
}

/**
 * The zip's entries, checked as a whole first (count, names, declared sizes), so a bad zip is refused
 * before any photo is looked at. Throws AppError (4xx) for the whole zip.
 */
async function entriesOf(zip: ZipFile, limits: ZipLimits): Promise<Entry[]> {
  if (zip.entryCount > limits.maxEntries) {
    throw wholeZip(
      'PAYLOAD_TOO_LARGE',
      `This zip has ${zip.entryCount} files; a zip of training photos may have at most ${limits.maxEntries}.`,
    );
  }
  const entries: Entry[] = [];
  let declared = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      entries.push(entry);
      declared += entry.uncompressedSize;
    }
  } catch (err) {
    throw unreadable(err);
  }
  if (declared > limits.maxUnpackedBytes) throw tooBig(limits);
  return entries;
}

/** One entry's bytes, at most `cap`; `undefined` when it has more (the inflater is stopped there). */
async function inflate(
  stream: Readable,
  cap: number,
  spend: (bytes: number) => void,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      spend(chunk.length);
      if (size > cap) return undefined;
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/**
 * Photos are compressed already (JPEG, HEIC, WebP, PNG…), so zipping them saves a few percent; even an
 * uncompressed TIFF of a real photo deflates by a few times. An entry declaring more than this many
 * times its zipped size is not a photo, whatever its first bytes say: 5 MB of zeros behind a PNG
 * signature zips to ~5 KB (1000:1), and inflating 100 of them cost as much as the zeros without one.
 * Below ENTRY_RATIO_FROM bytes the ratio is not looked at: inflating such an entry costs little.
 */
const MAX_ENTRY_RATIO = 100;
const ENTRY_RATIO_FROM = 64 * 1024;

const implausiblyPacked = (entry: Entry) =>
  entry.uncompressedSize > ENTRY_RATIO_FROM &&
  entry.uncompressedSize > MAX_ENTRY_RATIO * entry.compressedSize;

/** Compressed bytes of an entry looked at for its first inflated bytes: far more than any header needs. */
const HEAD_COMPRESSED_BYTES = 8 * 1024;

/**
 * The first inflated bytes of an entry, as many as sniffImageType needs, without inflating the rest:
 * growing prefixes of its compressed data are inflated until they give enough. Deflate turns one
 * compressed byte into at most ~1 KB, and the prefixes grow by at most 256 bytes once past 256, so
 * even a run of zeros gives only a few KB here.
 */
async function headOf(zip: ZipFile, entry: Entry, spend: (bytes: number) => void): Promise<Buffer> {
  const end = Math.min(entry.compressedSize, HEAD_COMPRESSED_BYTES);
  const raw = await buffer(await zip.openReadStreamPromise(entry, { decodeFileData: false, start: 0, end }));
  if (entry.compressionMethod === 0) {
    const head = raw.subarray(0, sniffLength(raw));
    spend(head.length);
    return head;
  }
  let taken = Math.min(16, raw.length);
  for (;;) {
    // A cut-short deflate stream is fine here: a sync flush gives whatever its prefix holds.
    const head = inflateRawSync(raw.subarray(0, taken), { finishFlush: constants.Z_SYNC_FLUSH });
    spend(head.length);
    if (head.length >= sniffLength(head) || taken >= raw.length) return head;
    taken = Math.min(taken < 256 ? taken * 2 : taken + 256, raw.length);
  }
}

/**
 * The photos of a zip file on disk, one at a time. Ignored entries (folders, `__MACOSX/`, dotfiles)
 * are skipped; archives, encrypted entries and over-large files come back refused by name.
 * Throws AppError for the whole zip: too many entries, too many bytes (declared or inflated), a path
 * that leaves the zip, a damaged structure.
 */
export async function* photosInZip(path: string, limits: ZipLimits): AsyncGenerator<ZipItem> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false });
  } catch (err) {
    throw unreadable(err);
  }
  try {
    const entries = await entriesOf(zip, limits);
    let unpacked = 0;
    const spend = (bytes: number) => {
      unpacked += bytes;
      inflatedTotal += bytes;
      if (unpacked > limits.maxUnpackedBytes) throw tooBig(limits);
    };
    for (const entry of entries) {
      const name = entry.fileName;
      if (ignored(name)) continue;
      if (ARCHIVE.test(name)) {
        yield {
          name,
          refused: 'An archive inside the zip: it is not opened. Put its photos in the zip itself.',
        };
        continue;
      }
      if (entry.isEncrypted()) {
        yield { name, refused: 'Encrypted in the zip: zip the photos again without a password.' };
        continue;
      }
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        yield {
          name,
          refused: 'Compressed in a way we cannot read: zip the photos again with standard settings.',
        };
        continue;
      }
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        yield { name, refused: tooLargeReason(entry.uncompressedSize, limits.maxEntryBytes) };
        continue;
      }
      let image = true;
      let bytes: Buffer | undefined;
      try {
        // Not an image by how it packs or by its first bytes: refused by name as the photo check
        // would, never inflated.
        image =
          entry.uncompressedSize === 0 ||
          (!implausiblyPacked(entry) && sniffImageType(await headOf(zip, entry, spend)) !== undefined);
        if (image) bytes = await inflate(await zip.openReadStreamPromise(entry), limits.maxEntryBytes, spend);
      } catch (err) {
        throw err instanceof AppError ? err : unreadable(err);
      }
      if (!image) {
        yield { name, refused: NOT_AN_IMAGE };
        continue;
      }
      yield bytes
        ? { name, bytes }
        : { name, refused: tooLargeReason(limits.maxEntryBytes + 1, limits.maxEntryBytes) };
    }
  } finally {
    zip.close();
  }
}

export function tooLargeReason(bytes: number, max: number): string {
  return `Too large: ${formatBytes(bytes)}; each photo may be at most ${formatBytes(max)}.`;
}
