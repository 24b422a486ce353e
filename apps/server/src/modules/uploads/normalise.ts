/**
 * Turning whatever a person uploads into an image every other part of the product can use: a JPEG (or
 * a PNG when it has transparency), upright, with no metadata (EXIF and its GPS position, XMP, IPTC,
 * comments). The type comes from the bytes (sniff.ts); decompression bombs are refused from the header
 * before any pixel is decoded; damaged or cut-short files are refused rather than stored half grey.
 */
import sharp, { type Metadata, type Sharp } from 'sharp';
// sharp's process-wide settings (one libvips thread per operation, no cache) live there.
import '../../adapters/media/media.ts';
import { DecodeSlotsBusyError, withDecodeSlot } from '../../adapters/media/decode-slots.ts';
import { AppError } from '../../errors.ts';
import { convertHeic, HeicTooLargeError, type ConvertedHeic } from './heic.ts';
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

/** The file extension a normalised image is stored under. */
export const normalisedExtension = (contentType: NormalisedImage['contentType']) =>
  contentType === 'image/png' ? 'png' : 'jpg';

/** Largest accepted width × height, by how costly the format is to decode. */
export interface PixelLimits {
  maxPixels: number;
  /**
   * HEIC/HEIF with HEVC inside (phone photos). Its decoder holds ~9 bytes per pixel where sharp
   * streams, so it has a smaller limit (UPLOAD_HEIC_MAX_PIXELS); maxPixels when not given.
   */
  heicMaxPixels?: number;
}

/** Whose image it is: the decode slots take turns between people (adapters/media/decode-slots.ts). */
export interface DecodeOwner {
  owner?: string;
}

export interface NormaliseOptions extends PixelLimits, DecodeOwner {
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

export function tooManyPixels(width: number, height: number, maxPixels: number, kind?: string): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `This image is ${width}×${height} pixels; the limit${kind ? ` for ${kind} images` : ''} is ${megapixels(maxPixels)} megapixels.`,
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
  /** This format's pixel limit, and its name in the refusal when it is not the general one. */
  maxPixels: number;
  limitName?: string;
  meta: Metadata;
  /** A fresh pipeline over the first frame, with the pixel limit and the damaged-data check. */
  input(): Sharp;
  /** HEIC, already converted to its normalised JPEG or PNG by its decoder's worker (heic.ts). */
  converted?: ConvertedHeic;
}

async function open(bytes: Buffer, limits: PixelLimits): Promise<Source> {
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

  // HEIF with HEVC inside (phone photos): sharp can read the header above but not the pixels. AVIF
  // (AV1) is decoded by sharp itself.
  if ((type === 'heif' || type === 'avif') && meta.compression !== 'av1') {
    const maxPixels = Math.min(limits.heicMaxPixels ?? limits.maxPixels, limits.maxPixels);
    const limitName = maxPixels < limits.maxPixels ? 'HEIC' : undefined;
    // The declared size (ispe) is refused here, before the decoder starts; the worker checks again
    // after the file's rotation is applied.
    if (width * height > maxPixels) throw tooManyPixels(width, height, maxPixels, limitName);
    let converted;
    try {
      converted = await convertHeic(bytes, maxPixels, { jpeg: JPEG_OPTIONS });
    } catch (err) {
      if (err instanceof HeicTooLargeError) throw tooManyPixels(err.width, err.height, maxPixels, limitName);
      throw damaged(err);
    }
    return {
      type,
      width: converted.width,
      height: converted.height,
      maxPixels,
      limitName,
      // libheif has applied the file's rotation and mirroring; HEIF ignores EXIF orientation.
      meta: { ...meta, orientation: undefined },
      input: () => sharp(converted.bytes, { limitInputPixels: maxPixels, failOn: 'error' }),
      converted,
    };
  }
  const { maxPixels } = limits;
  if (width * height > maxPixels) throw tooManyPixels(width, height, maxPixels);
  return {
    type,
    width,
    height,
    maxPixels,
    meta,
    // pages: 1 (the default) is the first frame of a GIF, WebP animation or multi-page TIFF.
    // failOn 'error': missing data fails in every format (libtiff's read errors included), while
    // decoder warnings that leave the picture intact (stray bytes in a camera JPEG) do not.
    input: () => sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' }),
  };
}

/** Decoding failures become the person's "damaged" message; the pixel limit keeps its own. */
async function decoding<T>(source: Source, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw tooManyPixels(source.width, source.height, source.maxPixels, source.limitName);
    }
    throw damaged(err);
  }
}

/**
 * Whether every pixel is fully opaque. Only the alpha channel is decoded into memory (one byte per
 * pixel: 64 MB at 64 megapixels), never the whole image: decoding a 64-megapixel RGBA PNG to raw
 * pixels held 256 MB, and sharp's stats() on it ~300 MB and ten times as long.
 */
async function isSourceOpaque(source: Source): Promise<boolean> {
  // 'alpha' is the last band after sharp's conversion to sRGB, whatever the input (grey, CMYK). A
  // 16-bit alpha comes out as two bytes per pixel, both 255 only when fully opaque.
  const alpha = await source.input().extractChannel('alpha').raw().toBuffer();
  for (let i = 0; i < alpha.length; i++) if (alpha[i] !== 255) return false;
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
async function passThroughJpeg(bytes: Buffer, source: Source) {
  const stripped = stripJpegMetadata(bytes);
  if (!stripped) return undefined;
  try {
    await sharp(stripped, { limitInputPixels: source.maxPixels, failOn: 'warning' })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    return undefined;
  }
  return { bytes: stripped, width: source.width, height: source.height };
}

/**
 * A decode slot for a request, rather than waiting long: 429 with Retry-After when this person already
 * has their share of the queue waiting, 503 with Retry-After when the whole queue is full.
 */
function withUploadDecodeSlot<T>(owner: string | undefined, decode: () => Promise<T>): Promise<T> {
  return withDecodeSlot(decode, { owner }).catch((error: unknown) => {
    if (error instanceof DecodeSlotsBusyError) {
      throw new AppError(error.mine ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE', error.message, {
        retryAfterSeconds: error.retryAfterSeconds,
      });
    }
    throw error;
  });
}

/**
 * Checks and normalises an upload. Throws AppError('VALIDATION_FAILED') with a sentence for a person:
 * not an image we accept, damaged or cut short, or over its format's pixel limit; or
 * AppError('SERVICE_UNAVAILABLE') when too many images are already waiting to be decoded, or
 * AppError('RATE_LIMITED') when too many of them are this owner's.
 */
export function normaliseUpload(bytes: Buffer, options: NormaliseOptions): Promise<NormalisedImage> {
  return withUploadDecodeSlot(options.owner, () => normalise(bytes, options));
}

async function normalise(bytes: Buffer, options: NormaliseOptions): Promise<NormalisedImage> {
  const source = await open(bytes, options);
  if (source.converted) {
    const { bytes: converted, contentType, width, height } = source.converted;
    return { bytes: converted, contentType, width, height, sourceFormat: source.type };
  }

  if (options.jpegPassthrough !== false && canPassThrough(source)) {
    const kept = await passThroughJpeg(bytes, source);
    if (kept) return { ...kept, contentType: 'image/jpeg', sourceFormat: source.type };
  }

  return decoding(source, async () => {
    // Transparency decides the format: PNG when some pixel is see-through, JPEG otherwise.
    const transparent = source.meta.hasAlpha && !(await isSourceOpaque(source));
    const upright = source.input().rotate();
    const { data, info } = await (
      transparent
        ? upright.toColourspace('srgb').png()
        : upright.flatten({ background: '#ffffff' }).jpeg(JPEG_OPTIONS)
    ).toBuffer({ resolveWithObject: true });
    return {
      bytes: data,
      contentType: transparent ? 'image/png' : 'image/jpeg',
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
export function previewJpeg(
  bytes: Buffer,
  options: PixelLimits & DecodeOwner & { maxSide?: number },
): Promise<Buffer> {
  const side = options.maxSide ?? PREVIEW_MAX_SIDE;
  return withUploadDecodeSlot(options.owner, async () => {
    const source = await open(bytes, options);
    return decoding(source, () =>
      source
        .input()
        .rotate()
        .resize(side, side, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: PREVIEW_QUALITY })
        .toBuffer(),
    );
  });
}
