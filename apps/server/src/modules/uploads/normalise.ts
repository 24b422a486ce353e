/**
 * Turning whatever a person uploads into an image every other part of the product can use: a JPEG (or
 * a PNG when it has transparency), upright, with no metadata (EXIF and its GPS position, XMP, IPTC,
 * comments). The type comes from the bytes (sniff.ts); decompression bombs are refused from the header
 * before any pixel is decoded; damaged or cut-short files are refused rather than stored half grey.
 */
import sharp, { type Metadata, type Sharp } from 'sharp';
// sharp's process-wide settings (one libvips thread per operation, no cache) live there.
import '../../adapters/media/media.ts';
import { AppError } from '../../errors.ts';
import { decodeHeic, HeicTooLargeError } from './heic.ts';
import { stripJpegMetadata } from './jpeg-markers.ts';
import { sniffImageType, type SniffedType } from './sniff.ts';

export interface NormalisedImage {
  bytes: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  /** Upright dimensions (after the EXIF orientation was applied). */
  width: number;
  height: number;
  sourceFormat: SniffedType;
}

export interface NormaliseOptions {
  /** Largest accepted width × height. */
  maxPixels: number;
  /**
   * Upright sRGB/greyscale JPEGs keep their compressed data and only lose their metadata segments
   * (jpeg-markers.ts) instead of being decoded and re-encoded: no generation loss, and for a
   * 12-megapixel photo ~40 ms instead of ~85 ms (bench/upload.bench.ts). On by default; the bench
   * turns it off to measure the re-encoding path.
   */
  jpegPassthrough?: boolean;
}

/**
 * Re-encoded JPEGs: quality 90 without Huffman table optimisation. Optimising saves ~4% of the size
 * but costs ~110 ms more at 12 megapixels (two passes over every coefficient), which alone would put a
 * sideways phone photo over the 400 ms upload budget (bench/upload.bench.ts).
 */
const JPEG_OPTIONS = { quality: 90, optimiseCoding: false } as const;
export const PREVIEW_MAX_SIDE = 1024;
const PREVIEW_QUALITY = 85;

export const NOT_AN_IMAGE =
  'This file is not an image we can read. Upload a JPEG, PNG, WebP, HEIC, AVIF, TIFF or GIF.';
export const DAMAGED = 'This image looks damaged or cut short; try exporting it again.';

const megapixels = (pixels: number) => Number((pixels / 1_000_000).toPrecision(3));

export function tooManyPixels(width: number, height: number, maxPixels: number): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `This image is ${width}×${height} pixels; the limit is ${megapixels(maxPixels)} megapixels.`,
  );
}

const notAnImage = () => new AppError('VALIDATION_FAILED', NOT_AN_IMAGE);
const damaged = (cause?: unknown) => new AppError('VALIDATION_FAILED', DAMAGED, { cause });

/** sharp's own name for each sniffed type: a file whose header disagrees with its magic bytes is refused. */
const sharpFormat: Record<SniffedType, string> = {
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'gif',
  tiff: 'tiff',
  heif: 'heif',
  avif: 'heif',
};

/** An accepted, size-checked image, ready to decode. */
interface Source {
  type: SniffedType;
  /** Stored dimensions (before orientation), of the first frame. */
  width: number;
  height: number;
  meta: Metadata;
  /** A fresh pipeline over the first frame, with the pixel limit and the damaged-data check. */
  input(): Sharp;
  /** Already-decoded RGBA pixels (HEIC), so transparency is checked without another pass. */
  rgba?: Buffer;
}

async function open(bytes: Buffer, maxPixels: number): Promise<Source> {
  const type = sniffImageType(bytes);
  if (!type) throw notAnImage();
  let meta: Metadata;
  try {
    // Reads the header only, so a 20000×20000 bomb costs nothing here; sharp's own default limit is
    // lifted for this read so the check below can name the dimensions.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    throw damaged(err);
  }
  if (meta.format !== sharpFormat[type]) throw notAnImage();
  const width = meta.width;
  const height = meta.pageHeight ?? meta.height;
  if (!width || !height) throw damaged();
  if (width * height > maxPixels) throw tooManyPixels(width, height, maxPixels);

  // HEIF with HEVC inside (phone photos): sharp can read the header above but not the pixels. AVIF
  // (AV1) is decoded by sharp itself.
  if ((type === 'heif' || type === 'avif') && meta.compression !== 'av1') {
    let decoded;
    try {
      decoded = await decodeHeic(bytes, maxPixels);
    } catch (err) {
      if (err instanceof HeicTooLargeError) throw tooManyPixels(err.width, err.height, maxPixels);
      throw damaged(err);
    }
    const raw = { width: decoded.width, height: decoded.height, channels: 4 as const };
    return {
      type,
      width: decoded.width,
      height: decoded.height,
      // libheif has applied the file's rotation and mirroring; HEIF ignores EXIF orientation.
      meta: { ...meta, orientation: undefined, hasAlpha: true },
      input: () => sharp(decoded.rgba, { raw, limitInputPixels: maxPixels }),
      rgba: decoded.rgba,
    };
  }
  return {
    type,
    width,
    height,
    meta,
    // pages: 1 (the default) is the first frame of a GIF, WebP animation or multi-page TIFF.
    // failOn 'error': missing data fails in every format (libtiff's read errors included), while
    // decoder warnings that leave the picture intact (stray bytes in a camera JPEG) do not.
    input: () => sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' }),
  };
}

/** Decoding failures become the person's "damaged" message; the pixel limit keeps its own. */
async function decoding<T>(source: Source, maxPixels: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw tooManyPixels(source.width, source.height, maxPixels);
    }
    throw damaged(err);
  }
}

function isOpaque(pixels: Buffer, channels: number): boolean {
  for (let i = channels - 1; i < pixels.length; i += channels) if (pixels[i] !== 255) return false;
  return true;
}

const canPassThrough = (source: Source) =>
  source.type === 'jpeg' &&
  (source.meta.orientation ?? 1) === 1 &&
  (source.meta.space === 'srgb' || source.meta.space === 'b-w') &&
  !source.meta.hasAlpha;

/**
 * The JPEG's own compressed data without metadata, once a full decode (at 1/8 scale, which still reads
 * every coded block) has shown it is whole. Undefined when the file needs the re-encoding path: a
 * decoder warning (corrupt data, stray bytes) is only tolerated there, where the output is clean.
 */
async function passThroughJpeg(bytes: Buffer, source: Source, maxPixels: number) {
  const stripped = stripJpegMetadata(bytes);
  if (!stripped) return undefined;
  try {
    await sharp(stripped, { limitInputPixels: maxPixels, failOn: 'warning' })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    return undefined;
  }
  return { bytes: stripped, width: source.width, height: source.height };
}

/**
 * Checks and normalises an upload. Throws AppError('VALIDATION_FAILED') with a sentence for a person:
 * not an image we accept, damaged or cut short, or over the pixel limit.
 */
export async function normaliseUpload(bytes: Buffer, options: NormaliseOptions): Promise<NormalisedImage> {
  const { maxPixels } = options;
  const source = await open(bytes, maxPixels);

  if (options.jpegPassthrough !== false && canPassThrough(source)) {
    const kept = await passThroughJpeg(bytes, source, maxPixels);
    if (kept) return { ...kept, contentType: 'image/jpeg', sourceFormat: source.type };
  }

  return decoding(source, maxPixels, async () => {
    if (source.meta.hasAlpha) {
      // Transparency decides the format, so decode once to 8-bit sRGB(A) and look at the alpha.
      const { data, info } = source.rgba
        ? { data: source.rgba, info: { width: source.width, height: source.height, channels: 4 as const } }
        : await source.input().rotate().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
      const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
      const hasAlpha = info.channels === 2 || info.channels === 4;
      if (hasAlpha && !isOpaque(data, info.channels)) {
        const png = await sharp(data, raw).png().toBuffer();
        return {
          bytes: png,
          contentType: 'image/png',
          width: info.width,
          height: info.height,
          sourceFormat: source.type,
        };
      }
      const jpeg = await sharp(data, raw).removeAlpha().jpeg(JPEG_OPTIONS).toBuffer();
      return {
        bytes: jpeg,
        contentType: 'image/jpeg',
        width: info.width,
        height: info.height,
        sourceFormat: source.type,
      };
    }
    const { data, info } = await source
      .input()
      .rotate()
      .jpeg(JPEG_OPTIONS)
      .toBuffer({ resolveWithObject: true });
    return {
      bytes: data,
      contentType: 'image/jpeg',
      width: info.width,
      height: info.height,
      sourceFormat: source.type,
    };
  });
}

/**
 * A JPEG preview of any accepted upload (HEIC, TIFF, AVIF, a huge PNG…) that a browser can show:
 * upright, fitted inside maxSide × maxSide, transparency on white. Same checks as normaliseUpload.
 */
export async function previewJpeg(
  bytes: Buffer,
  options: { maxPixels: number; maxSide?: number },
): Promise<Buffer> {
  const side = options.maxSide ?? PREVIEW_MAX_SIDE;
  const source = await open(bytes, options.maxPixels);
  return decoding(source, options.maxPixels, () =>
    source
      .input()
      .rotate()
      .resize(side, side, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: PREVIEW_QUALITY })
      .toBuffer(),
  );
}
