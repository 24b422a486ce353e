import { UPSCALE_MAX_SIDE } from '@lumina/contracts';
import sharp, { type Metadata } from 'sharp';
import type { ProviderImage, UpscaleRequest } from '../../image-tools.ts';
import { ProviderError } from '../../text-to-image.ts';
import { rejected, type ToolRun } from './common.ts';

const UNREADABLE = 'This file is not an image we can read. Try a JPEG, PNG or WebP file.';

/**
 * Local upscaling: Lanczos-3 resampling to exactly factor × the width and height, then an unsharp
 * mask sized to the factor (enlarging softens edges by about the factor; the mask restores edge
 * contrast without haloes on flat areas, thanks to its flat/jagged thresholds).
 */

// The longest side we make (UPSCALE_MAX_SIDE, a 4× of a 2048 px image): beyond it memory (≈ 200 MB raw) is the limit.
/**
 * Up to this many output pixels the result is a PNG (lossless, what people expect from an upscaler).
 * Above it PNG gets huge and slow: measured on a 4096² upscale of a textured render, PNG is 23 MB and
 * takes 1.8 s, a quality-95 JPEG with full-resolution colour (4:4:4) 3.5 MB and 1.3 s (mostly the
 * resize), with no visible difference. So larger results are that JPEG, or a quality-92 WebP when
 * the image has transparency (JPEG has none).
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
    meta = await sharp(request.image.bytes, { failOn: 'error' }).metadata();
  } catch (cause) {
    throw rejected(`cannot decode image: ${String(cause)}`, UNREADABLE);
  }
  const inW = meta.width;
  const inH = meta.height;
  if (!inW || !inH) throw rejected('image without size', UNREADABLE);
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
  const pipeline = sharp(request.image.bytes, { failOn: 'error' })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .sharpen({ sigma: 0.5 + 0.25 * factor, m1: 0.4, m2: 2.2, x1: 2, y2: 12, y3: 20 });
  const hasAlpha = Boolean(meta.hasAlpha);
  const [format, contentType] =
    width * height <= UPSCALE_PNG_MAX_PIXELS
      ? (['png', 'image/png'] as const)
      : hasAlpha
        ? (['webp', 'image/webp'] as const)
        : (['jpeg', 'image/jpeg'] as const);
  let bytes: Buffer;
  try {
    bytes = await (
      format === 'png'
        ? pipeline.png({ compressionLevel: 6 })
        : format === 'webp'
          ? pipeline.webp({ quality: 92, alphaQuality: 100, effort: 2 })
          : pipeline.jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
    ).toBuffer();
  } catch (cause) {
    // The header read fine but the pixels do not (a truncated or corrupt file).
    throw new ProviderError(`cannot upscale: ${String(cause)}`, 'rejected', UNREADABLE, { cause });
  }
  await run.progress(100, 'Done');
  return { bytes, contentType, width, height };
}
