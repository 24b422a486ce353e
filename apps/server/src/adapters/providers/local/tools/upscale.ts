import sharp, { type Metadata } from 'sharp';
import type { ProviderImage, UpscaleRequest } from '../../image-tools.ts';
import { rejected, type ToolRun } from './common.ts';

/**
 * Local upscaling: Lanczos-3 resampling to exactly factor × the width and height, then an unsharp
 * mask sized to the factor (enlarging softens edges by about the factor; the mask restores edge
 * contrast without haloes on flat areas, thanks to its flat/jagged thresholds).
 */

/** Longest side we make: a 4× of a 2048 px image; beyond that memory (≈ 200 MB raw) is the limit. */
export const UPSCALE_MAX_SIDE = 8192;
/**
 * Up to this many output pixels the result is a PNG (lossless, what people expect from an upscaler).
 * Above it, PNG gets slow and huge: a 4096² photo is ~30 MB and 3–5 s to compress on one core, so
 * larger results are a quality-95 JPEG (full-resolution colour, ~5 MB, well under a second), or a
 * quality-92 WebP when the image has transparency (JPEG has none).
 */
export const UPSCALE_PNG_MAX_PIXELS = 4_000_000;

export async function upscaleImage(request: UpscaleRequest, run: ToolRun): Promise<ProviderImage> {
  const { factor } = request;
  if (factor !== 2 && factor !== 4) {
    throw rejected(`bad factor ${String(factor)}`, 'The upscale factor must be 2 or 4.');
  }
  await run.progress(5, 'Reading the image');
  let meta: Metadata;
  try {
    meta = await sharp(request.image.bytes).metadata();
  } catch (cause) {
    throw rejected(
      `cannot decode image: ${String(cause)}`,
      'This file is not an image we can read. Try a JPEG, PNG or WebP file.',
    );
  }
  const inW = meta.width;
  const inH = meta.height;
  if (!inW || !inH)
    throw rejected(
      'image without size',
      'This file is not an image we can read. Try a JPEG, PNG or WebP file.',
    );
  const width = inW * factor;
  const height = inH * factor;
  if (Math.max(width, height) > UPSCALE_MAX_SIDE) {
    throw rejected(
      `upscale too large: ${width}x${height}`,
      `The upscaled image would be ${width} × ${height} pixels; the local upscaler makes images up to ${UPSCALE_MAX_SIDE} pixels on a side.` +
        (factor === 4 ? ' Try 2× instead.' : ' Try a smaller image.'),
    );
  }

  await run.progress(15, `Enlarging ${factor}× with Lanczos resampling and sharpening`);
  const pipeline = sharp(request.image.bytes)
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .sharpen({ sigma: 0.5 + 0.25 * factor, m1: 0.4, m2: 2.2, x1: 2, y2: 12, y3: 20 });
  const hasAlpha = Boolean(meta.hasAlpha);
  let bytes: Buffer;
  let contentType: string;
  if (width * height <= UPSCALE_PNG_MAX_PIXELS) {
    bytes = await pipeline.png({ compressionLevel: 6 }).toBuffer();
    contentType = 'image/png';
  } else if (hasAlpha) {
    bytes = await pipeline.webp({ quality: 92, alphaQuality: 100, effort: 2 }).toBuffer();
    contentType = 'image/webp';
  } else {
    bytes = await pipeline.jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer();
    contentType = 'image/jpeg';
  }
  await run.progress(100, 'Done');
  return { bytes, contentType, width, height };
}
