import sharp from 'sharp';

/**
 * Decodes a training photo to sRGB bytes (3 per pixel) at most `longSide` px on its long side. The
 * photos arrive already upright and stripped by the upload pipeline, at full size: for a JPEG, libjpeg
 * decodes straight at 1/2, 1/4 or 1/8 scale (shrink-on-load), so a 12-megapixel photo never exists
 * in memory at full size here.
 */
export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

export async function readPixels(photo: Buffer, longSide: number): Promise<Pixels> {
  const { data, info } = await sharp(photo)
    .resize(longSide, longSide, { fit: 'inside', withoutEnlargement: true })
    // A transparent PNG's clear areas read as white, as a viewer would show them, not black.
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Shrinks already-decoded pixels further (no second decode of the photo). */
export async function shrinkPixels(pixels: Pixels, longSide: number): Promise<Pixels> {
  const { data, info } = await sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: 3 },
  })
    .resize(longSide, longSide, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
