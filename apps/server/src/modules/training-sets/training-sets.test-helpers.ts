import { randomBytes } from 'node:crypto';
import { crc32, deflateRawSync, constants } from 'node:zlib';
import sharp from 'sharp';

/**
 * A photo-like test image, different for every seed: a coarse grid of random grey-coloured blocks
 * (sharp edges, so it is neither blurry nor plain), so perceptual hashes of two seeds differ.
 */
export async function seededPhoto(
  seed: number,
  width = 768,
  height = 640,
  options: { blur?: number; format?: 'jpeg' | 'png' } = {},
): Promise<Buffer> {
  let state = (seed * 2654435761) >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const cols = 12;
  const rows = 10;
  const coarse = Buffer.alloc(cols * rows * 3);
  for (let i = 0; i < cols * rows; i++) {
    const level = Math.floor(random() * 255);
    coarse[i * 3] = level;
    coarse[i * 3 + 1] = Math.floor(level * 0.8 + random() * 50);
    coarse[i * 3 + 2] = Math.floor(255 - level * 0.7);
  }
  let image = sharp(coarse, { raw: { width: cols, height: rows, channels: 3 } }).resize(width, height, {
    kernel: 'nearest',
    fit: 'fill',
  });
  if (options.blur) image = sharp(await image.png().toBuffer()).blur(options.blur);
  return options.format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 90 }).toBuffer();
}

export interface ZipEntrySpec {
  name: string;
  data: Buffer;
  /** Deflate (default) or store. */
  method?: 'deflate' | 'store';
  /** Pre-compressed deflate data (with `size` the size it claims), for archives too large to build honestly. */
  raw?: { compressed: Buffer; size: number; crc: number };
}

/**
 * A zip built byte by byte, so a test can write what a careful zip tool refuses to (`../` names,
 * absolute paths, sizes that lie).
 */
export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const method = entry.raw || entry.method !== 'store' ? 8 : 0;
    const compressed = entry.raw?.compressed ?? (method === 8 ? deflateRawSync(entry.data) : entry.data);
    const size = entry.raw?.size ?? entry.data.length;
    const crc = entry.raw?.crc ?? crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6); // names in UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(0x800, 8);
    record.writeUInt16LE(method, 10);
    record.writeUInt32LE(crc >>> 0, 16);
    record.writeUInt32LE(compressed.length, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    central.push(record, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * Deflate data that inflates to `megabytes` MB of zeros (~1 KB per MB), built from one compressed
 * megabyte repeated: each copy ends on a byte boundary (full flush) and only the last block is final.
 */
export function zerosDeflated(megabytes: number): { compressed: Buffer; size: number; crc: number } {
  const mb = Buffer.alloc(1024 * 1024);
  const block = deflateRawSync(mb, { finishFlush: constants.Z_FULL_FLUSH });
  const compressed = Buffer.concat([
    ...Array.from({ length: megabytes }, () => block),
    deflateRawSync(Buffer.alloc(0)),
  ]);
  let crc = 0;
  for (let i = 0; i < megabytes; i++) crc = crc32(mb, crc);
  return { compressed, size: megabytes * 1024 * 1024, crc };
}

export interface UploadPart {
  filename: string;
  data: Buffer | string;
  contentType?: string;
  /** The form field (default "files"). */
  name?: string;
}

/** A multipart body with the `files` field repeated, as a browser sends several chosen files. */
export function filesForm(parts: UploadPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----lumina-training-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name ?? 'files'}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.contentType ?? 'image/jpeg'}\r\n\r\n`,
      ),
      Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
