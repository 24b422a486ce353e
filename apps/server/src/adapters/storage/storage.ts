import type { Readable } from 'node:stream';

export type StorageBody = Buffer | Uint8Array | Readable;

export interface StoredObject {
  body: Readable;
  size: number;
  contentType: string | undefined;
}

export interface UrlOptions {
  expiresInSeconds: number;
  /** When set, the URL makes the browser save the file under this name. */
  downloadName?: string;
}

/** Where user files live: local disk by default, any S3-compatible store when configured. */
export interface Storage {
  put(
    key: string,
    body: StorageBody,
    opts?: { contentType?: string },
  ): Promise<{ key: string; size: number }>;
  /** Throws StorageNotFoundError when the key does not exist. */
  get(key: string): Promise<StoredObject>;
  exists(key: string): Promise<boolean>;
  /** Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  /** Deletes every key starting with `prefix` (plain string prefix, as in S3); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** A short-lived URL that lets a browser fetch the object without a session. */
  url(key: string, opts: UrlOptions): Promise<string>;
  /** Readiness probe: resolves when the store can be written to / reached. */
  check(): Promise<void>;
}

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object at key "${key}"`);
    this.name = 'StorageNotFoundError';
  }
}

export class StorageKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid storage key "${key.slice(0, 80)}": ${reason}`);
    this.name = 'StorageKeyError';
  }
}

export const MAX_KEY_LENGTH = 512;
/** Filesystems cap a name at 255 bytes; the disk backend appends up to 41 ("~tmp-<uuid>") to a segment. */
export const MAX_SEGMENT_LENGTH = 200;
const KEY_CHARS = /^[A-Za-z0-9._/-]+$/;

/**
 * Keys become file paths on disk, so anything that could escape the root or alias another key
 * ("..", ".", empty segments, absolute paths) is refused rather than normalised.
 */
export function validateKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new StorageKeyError(String(key), 'empty');
  if (key.length > MAX_KEY_LENGTH) throw new StorageKeyError(key, `longer than ${MAX_KEY_LENGTH} characters`);
  if (!KEY_CHARS.test(key)) throw new StorageKeyError(key, 'only A-Z a-z 0-9 . _ / - are allowed');
  if (key.startsWith('/')) throw new StorageKeyError(key, 'must be relative');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new StorageKeyError(key, 'empty, "." or ".." path segment');
    }
    if (segment.length > MAX_SEGMENT_LENGTH) {
      throw new StorageKeyError(key, `a path segment is longer than ${MAX_SEGMENT_LENGTH} characters`);
    }
  }
  return key;
}

/** A prefix is a key that may end with "/"; an empty prefix is refused so nobody wipes the store by accident. */
export function validatePrefix(prefix: string): string {
  validateKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}

/** Content-Disposition for a download, with an ASCII fallback and the RFC 5987 UTF-8 name. */
export function contentDisposition(downloadName: string): string {
  const ascii = downloadName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(downloadName)}`;
}
