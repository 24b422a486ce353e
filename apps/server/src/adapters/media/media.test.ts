import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { thumbnail, THUMBNAIL_MAX_SIDE } from './media.ts';

/** A PNG with gradients and shapes, closer to a real output than a flat colour. */
const picture = (width: number, height: number) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
        <defs><radialGradient id="g"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#036"/></radialGradient></defs>
        <rect width="${width}" height="${height}" fill="url(#g)"/>
        <circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#fff" opacity="0.5"/>
      </svg>`,
    ),
  )
    .png()
    .toBuffer();

describe('thumbnail', () => {
  it('is a WebP no larger than THUMBNAIL_MAX_SIDE on its longer side, aspect kept', async () => {
    const meta = await sharp(await thumbnail(await picture(1024, 768))).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: THUMBNAIL_MAX_SIDE, height: 288 });
  });

  it('never enlarges a small image', async () => {
    const meta = await sharp(await thumbnail(await picture(256, 256))).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('applies the EXIF orientation', async () => {
    const rotated = await sharp(await picture(400, 200))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const meta = await sharp(await thumbnail(rotated)).metadata();
    expect(meta).toMatchObject({ width: 192, height: THUMBNAIL_MAX_SIDE });
  });

  it('costs about the bytes of sharp default encoder effort at the same quality', async () => {
    // The encoder effort is lowered for CPU time; the file must not grow noticeably for it.
    for (const source of [await picture(1024, 768), await picture(256, 256)]) {
      const ours = await thumbnail(source);
      const reference = await sharp(source)
        .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      expect(ours.length).toBeLessThan(reference.length * 1.1);
    }
  });
});
