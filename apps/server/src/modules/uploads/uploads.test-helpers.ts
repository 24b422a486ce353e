/**
 * Test images and multipart bodies for upload tests. Images are made with sharp at test time (small:
 * sizes do not matter here), except HEIC, which sharp cannot encode: that one is a committed fixture.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { TestEnv } from '../../../test/harness.ts';

export const HEIC_FIXTURE = path.resolve(import.meta.dirname, '../../../test/fixtures/uploads/photo.heic');
/** 160×120, left half red (220,30,30), right half blue (30,60,220); HEVC-coded (made with heif-enc). */
export const heicPhoto = () => readFileSync(HEIC_FIXTURE);

export const RED = { r: 230, g: 20, b: 20 };
export const BLUE = { r: 20, g: 40, b: 230 };

/** Raw RGB pixels: left half red, right half blue, so orientation is visible in the result. */
export function halves(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = x < width / 2 ? RED : BLUE;
      raw.set([c.r, c.g, c.b], (y * width + x) * 3);
    }
  }
  return raw;
}

export type EncodableFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'tiff' | 'gif';

/** A two-colour picture (see `halves`) in the given format. */
export function photo(format: EncodableFormat, width = 120, height = 80): Promise<Buffer> {
  const image = sharp(halves(width, height), { raw: { width, height, channels: 3 } });
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: 95 }).toBuffer();
    case 'png':
      return image.png().toBuffer();
    case 'webp':
      return image.webp({ quality: 95 }).toBuffer();
    case 'avif':
      return image.avif({ quality: 80, effort: 0 }).toBuffer();
    case 'tiff':
      return image.tiff().toBuffer();
    case 'gif':
      return image.gif().toBuffer();
  }
}

/** A JPEG whose pixels are stored sideways with EXIF orientation 6, carrying camera, GPS and XMP data. */
export function sidewaysJpegWithGps(width = 120, height = 80): Promise<Buffer> {
  return sharp(halves(width, height), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'TestCam', ImageDescription: 'secret-exif-description' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="secret-xmp-person"/>' +
        '</rdf:RDF></x:xmpmeta>',
    )
    .toBuffer();
}

/** A PNG with a transparent right half. */
export function transparentPng(width = 60, height = 40): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const x = i % width;
    raw.set(x < width / 2 ? [230, 20, 20, 255] : [0, 0, 0, 0], i * 4);
  }
  return sharp(raw, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/**
 * A decompression bomb's header: a PNG declaring width × height pixels with almost no data behind it.
 * Decoding it would need gigabytes; reading its header costs nothing.
 */
export function pngBombHeader(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The colour at (x, y) of an encoded image, decoded by sharp. */
export async function pixelAt(bytes: Buffer, x: number, y: number) {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at]!, g: data[at + 1]!, b: data[at + 2]!, a: info.channels === 4 ? data[at + 3]! : 255 };
}

/** True when two colours are within `tolerance` on every channel (lossy formats drift a little). */
export const near = (
  a: { r: number; g: number; b: number },
  b: { r: number; g: number; b: number },
  tolerance = 40,
) => Math.abs(a.r - b.r) <= tolerance && Math.abs(a.g - b.g) <= tolerance && Math.abs(a.b - b.b) <= tolerance;

export interface FormPart {
  name: string;
  /** Present: a file part (Content-Disposition filename). Absent: a text field. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data body built by hand, so tests can send what no browser would. */
export function multipartForm(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----lumina-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const type = part.contentType ?? (part.filename === undefined ? undefined : 'application/octet-stream');
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
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

/** Every file a person has in storage (disk storage in tests), relative to their folder. */
export function filesOf(env: TestEnv, userId: string): string[] {
  const dir = path.join(env.config.dataDir, 'files', 'users', userId);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}
