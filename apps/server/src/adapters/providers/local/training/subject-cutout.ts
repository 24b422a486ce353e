import sharp from 'sharp';
import { SUBJECT_MAX_SIDE, type StyleSubject } from '../style-profile.ts';
import { readPixels, shrinkPixels } from './read-photo.ts';
import { findSubject } from './subject-mask.ts';

/**
 * Cuts the subject out of one photo: the mask is found at MASK_SIDE (enough for a clean outline, cheap
 * to compute), upscaled to the cut-out's size and feathered so its edge blends into whatever the
 * engine paints behind it; the PNG is cropped to the subject plus the feather.
 */

const MASK_SIDE = 256;

export async function cutOutSubject(photo: Buffer): Promise<StyleSubject | null> {
  const full = await readPixels(photo, SUBJECT_MAX_SIDE);
  const small = await shrinkPixels(full, MASK_SIDE);
  const found = findSubject(small.data, small.width, small.height);
  if (!found?.clear) return null;

  const { width, height } = full;
  const feather = Math.max(1, Math.round(Math.max(width, height) * 0.012));
  const alpha = await sharp(Buffer.from(found.mask), {
    raw: { width: found.width, height: found.height, channels: 1 },
  })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .blur(feather)
    // libvips hands single-band raw input back as sRGB; keep one band.
    .extractChannel(0)
    .raw()
    .toBuffer();

  const kx = width / found.width;
  const ky = height / found.height;
  const margin = feather * 3;
  const x0 = Math.max(0, Math.floor(found.box.x0 * kx) - margin);
  const y0 = Math.max(0, Math.floor(found.box.y0 * ky) - margin);
  const x1 = Math.min(width - 1, Math.ceil((found.box.x1 + 1) * kx) + margin);
  const y1 = Math.min(height - 1, Math.ceil((found.box.y1 + 1) * ky) + margin);
  const w = x1 - x0 + 1;
  const h = y1 - y0 + 1;
  const rgba = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const src = (y0 + y) * width + x0 + x;
      const dst = (y * w + x) * 4;
      // The blurred mask is 50 % on the outline; stretching its upper half keeps the feather inside
      // the subject, so no rim of the photo's background comes along.
      const a = Math.max(0, Math.min(255, 2 * alpha[src]! - 255));
      // Fully transparent pixels keep no colour: the PNG compresses better and leaks nothing.
      if (a === 0) continue;
      rgba[dst] = full.data[src * 3]!;
      rgba[dst + 1] = full.data[src * 3 + 1]!;
      rgba[dst + 2] = full.data[src * 3 + 2]!;
      rgba[dst + 3] = a;
    }
  const png = await sharp(rgba, { raw: { width: w, height: h, channels: 4 } })
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toBuffer();
  const sx = found.width;
  const sy = found.height;
  return {
    png: png.toString('base64'),
    width: w,
    height: h,
    placement: {
      x: round((found.box.x0 + found.box.x1 + 1) / 2 / sx),
      y: round((found.box.y0 + found.box.y1 + 1) / 2 / sy),
      height: round((found.box.y1 - found.box.y0 + 1) / sy),
      grounded: found.grounded,
    },
  };
}

const round = (v: number) => Math.round(v * 1000) / 1000;
