import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  StorageNotFoundError,
  validateKey,
  validatePrefix,
  type Storage,
  type StorageBody,
  type StoredObject,
  type UrlOptions,
} from './storage.ts';

export interface DiskStorageConfig {
  /** Directory holding the files; the app passes `<DATA_DIR>/files`. */
  root: string;
  /** HMAC secret for the `/api/files/...` URLs; the same secret must reach the files route. */
  signingSecret: string;
  /** Injected clock so URL expiry is testable. */
  now?: () => Date;
}

/*
 * Layout: the object for key "a/b.png" is `<root>/a/b.png`, its content type sits beside it in
 * `a/b.png~meta.json`, and uploads land in `a/b.png~tmp-<uuid>` before a rename. "~" can never
 * appear in a key, so sidecars and temp files cannot collide with real keys, and the temp file is
 * in the same directory so the rename is atomic (same filesystem).
 */
const SIDE = '~';

export class DiskStorage implements Storage {
  private readonly root: string;
  private readonly signingSecret: string;
  private readonly now: () => Date;

  constructor(config: DiskStorageConfig) {
    if (!config.signingSecret) throw new Error('DiskStorage needs a signingSecret for file URLs');
    this.root = config.root;
    this.signingSecret = config.signingSecret;
    this.now = config.now ?? (() => new Date());
  }

  async put(key: string, body: StorageBody, opts: { contentType?: string } = {}) {
    const path = this.pathOf(validateKey(key));
    const metaPath = `${path}${SIDE}meta.json`;
    // The body is fully on disk before the sidecar changes, so a failed upload leaves the old object intact.
    const { tmp, size } = await writeTemp(path, body);
    try {
      const implied = impliedContentType(key);
      if (opts.contentType && opts.contentType === implied) {
        // The extension says it: no sidecar to write and flush (half the fsyncs of a put).
        await rm(metaPath, { force: true });
      } else if (opts.contentType || implied) {
        // `{}` records "no content type" for a key whose extension would otherwise imply one.
        const meta = await writeTemp(
          metaPath,
          JSON.stringify(opts.contentType ? { contentType: opts.contentType } : {}),
        );
        await rename(meta.tmp, metaPath);
      } else {
        await rm(metaPath, { force: true });
      }
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    return { key, size };
  }

  async get(key: string): Promise<StoredObject> {
    const path = this.pathOf(validateKey(key));
    // Open first, then stat the handle: a concurrent delete cannot split size from body.
    const handle = await open(path).catch((error: unknown) => {
      throw isMissing(error) ? new StorageNotFoundError(key) : error;
    });
    try {
      const stats = await handle.stat();
      // A "key" that is really a directory (a prefix of other keys) is not an object.
      if (!stats.isFile()) throw new StorageNotFoundError(key);
      const contentType = await this.readContentType(path, key);
      return { body: handle.createReadStream(), size: stats.size, contentType };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async exists(key: string) {
    try {
      return (await stat(this.pathOf(validateKey(key)))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: string) {
    const path = this.pathOf(validateKey(key));
    await rm(path, { force: true });
    await rm(`${path}${SIDE}meta.json`, { force: true });
  }

  async deletePrefix(prefix: string) {
    validatePrefix(prefix);
    // Only walk the deepest directory the prefix names, not the whole store.
    const baseDir = this.pathOf(prefix.slice(0, prefix.lastIndexOf('/') + 1));
    let entries;
    try {
      entries = await readdir(baseDir, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    let count = 0;
    // Directories whose whole content matched the prefix, to prune once emptied.
    const dirs = prefix.endsWith('/') ? [prefix.slice(0, -1)] : [];
    for (const entry of entries) {
      const key = relative(this.root, join(entry.parentPath, entry.name));
      if (entry.isDirectory() && `${key}/`.startsWith(prefix)) {
        dirs.push(key);
      } else if (entry.isFile() && !entry.name.includes(SIDE) && key.startsWith(prefix)) {
        await this.delete(key);
        count++;
      }
    }
    // Prune directories left empty, deepest first; a non-empty one (a concurrent put) stays.
    for (const dir of dirs.sort((a, b) => b.length - a.length)) {
      await rmdir(this.pathOf(dir)).catch(() => undefined);
    }
    return count;
  }

  async url(key: string, opts: UrlOptions) {
    validateKey(key);
    const expires = Math.floor(this.now().getTime() / 1000) + opts.expiresInSeconds;
    const params = new URLSearchParams({
      expires: String(expires),
      signature: signFileUrl(key, expires, this.signingSecret, opts.downloadName),
    });
    if (opts.downloadName) params.set('download', opts.downloadName);
    return `/api/files/${key}?${params}`;
  }

  async check() {
    await mkdir(this.root, { recursive: true });
    const probe = join(this.root, `${SIDE}check-${randomUUID()}`);
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  }

  private pathOf(key: string) {
    return join(this.root, key);
  }

  private async readContentType(path: string, key: string): Promise<string | undefined> {
    try {
      const meta = JSON.parse(await readFile(`${path}${SIDE}meta.json`, 'utf8')) as { contentType?: string };
      return meta.contentType;
    } catch (error) {
      if (isMissing(error)) return impliedContentType(key);
      throw error;
    }
  }
}

/**
 * Content types a key's extension implies. An object stored with one of these needs no sidecar; one
 * stored with any other type (or none) keeps its sidecar, which always wins.
 */
const IMPLIED_CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  mp4: 'video/mp4',
};

function impliedContentType(key: string): string | undefined {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? IMPLIED_CONTENT_TYPES[name.slice(dot + 1)] : undefined;
}

/**
 * Writes to a flushed temp file beside `path`; the caller renames it into place, so readers see
 * either the old file or the whole new one, never a half-written file under the real key. The
 * directory is created when missing: up front for a stream (it cannot be replayed), on the first
 * failure for bytes (almost every write goes to a folder that exists).
 */
async function writeTemp(path: string, body: StorageBody | string): Promise<{ tmp: string; size: number }> {
  const tmp = `${path}${SIDE}tmp-${randomUUID()}`;
  try {
    if (body instanceof Readable) {
      await mkdir(dirname(path), { recursive: true });
      await pipeline(body, createWriteStream(tmp, { flush: true }));
      return { tmp, size: (await stat(tmp)).size };
    }
    try {
      await writeFile(tmp, body, { flush: true });
    } catch (error) {
      if (!isMissing(error)) throw error;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(tmp, body, { flush: true });
    }
    return { tmp, size: typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength };
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

function isMissing(error: unknown) {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function signaturePayload(key: string, expires: number, downloadName: string | undefined) {
  // Newline-separated: keys cannot contain "\n" and the download name comes last, so fields cannot be shifted.
  return `${key}\n${expires}\n${downloadName ?? ''}`;
}

/** Hex HMAC-SHA256 over key, expiry (unix seconds) and optional download name. */
export function signFileUrl(key: string, expires: number, secret: string, downloadName?: string): string {
  return createHmac('sha256', secret)
    .update(signaturePayload(key, expires, downloadName))
    .digest('hex');
}

/**
 * Checks a `/api/files/<key>?expires=&signature=[&download=]` request. `expires` may be the raw
 * query string; anything malformed is simply invalid, never an exception.
 */
export function verifyFileSignature(
  key: string,
  expires: number | string,
  signature: string,
  secret: string,
  now: Date,
  downloadName?: string,
): boolean {
  const expiresAt =
    typeof expires === 'number' ? expires : /^\d{1,15}$/.test(expires) ? Number(expires) : NaN;
  if (!Number.isSafeInteger(expiresAt) || expiresAt * 1000 < now.getTime()) return false;
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  try {
    validateKey(key);
  } catch {
    return false;
  }
  const expected = Buffer.from(signFileUrl(key, expiresAt, secret, downloadName), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
