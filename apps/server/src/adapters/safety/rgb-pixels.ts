import sharp from 'sharp';

/** Decoded RGB pixels, row by row, three bytes a pixel, as tfjs models take them. */
export interface RgbPixels {
  data: Uint8Array;
  width: number;
  height: number;
  /** The image's own size after its EXIF orientation, to map results back onto it. */
  source: { width: number; height: number };
}

/**
 * Decodes an image with sharp straight to the size a model wants: resizing in libvips before tfjs
 * sees it keeps the tensor small, which is most of the cost on a large photo. EXIF orientation is
 * applied (a sideways face is missed) and transparency is laid on white (an alpha channel is not a
 * colour the models were trained on).
 */
export async function decodeRgb(
  image: Buffer,
  size: { width: number; height: number; fit: 'fill' | 'inside' },
): Promise<RgbPixels> {
  const pipeline = sharp(image).rotate();
  const meta = await pipeline.metadata();
  const source = meta.autoOrient ?? { width: meta.width, height: meta.height };
  const { data, info } = await pipeline
    .resize(size.width, size.height, { fit: size.fit, withoutEnlargement: size.fit === 'inside' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
    source,
  };
}
