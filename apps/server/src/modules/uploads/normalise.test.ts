import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { stripJpegMetadata } from './jpeg-markers.ts';
import { DAMAGED, normaliseUpload, NOT_AN_IMAGE, previewJpeg } from './normalise.ts';
import { sniffImageType, sniffLength } from './sniff.ts';
import {
  BLUE,
  heicPhoto,
  near,
  photo,
  pixelAt,
  pngBombHeader,
  RED,
  sidewaysJpegWithGps,
  transparentPng,
  type EncodableFormat,
} from './uploads.test-helpers.ts';

const maxPixels = 64_000_000;

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** A JPEG segment: marker + big-endian length + payload. */
const segment = (marker: number, payload: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

describe('sniffImageType', () => {
  it.each<[EncodableFormat, string]>([
    ['jpeg', 'jpeg'],
    ['png', 'png'],
    ['webp', 'webp'],
    ['gif', 'gif'],
    ['tiff', 'tiff'],
    ['avif', 'avif'],
  ])('recognises %s from its bytes', async (format, expected) => {
    expect(sniffImageType(await photo(format, 16, 16))).toBe(expected);
  });

  it('recognises a HEVC HEIC (ftyp heic) as heif', () => {
    expect(sniffImageType(heicPhoto())).toBe('heif');
  });

  it('tells HEIF brands from other ISO-BMFF files and refuses everything else', () => {
    const ftyp = (major: string, ...compatible: string[]) => {
      const box = Buffer.alloc(16 + 4 * compatible.length);
      box.writeUInt32BE(box.length, 0);
      box.write('ftyp', 4, 'latin1');
      box.write(major, 8, 'latin1');
      compatible.forEach((b, i) => box.write(b, 16 + 4 * i, 'latin1'));
      return Buffer.concat([box, Buffer.alloc(16)]);
    };
    expect(sniffImageType(ftyp('mif1', 'heic', 'miaf'))).toBe('heif');
    expect(sniffImageType(ftyp('mif1', 'avif', 'miaf'))).toBe('avif');
    expect(sniffImageType(ftyp('heix', 'mif1'))).toBe('heif');
    expect(sniffImageType(ftyp('avis', 'msf1'))).toBe('avif');
    // An MP4 video is ISO-BMFF too, but not an image.
    expect(sniffImageType(ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('just some text, not an image'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(sniffImageType(Buffer.from('%PDF-1.7\n'))).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
  });

  it('needs 16 first bytes to decide, or the whole ftyp box, and decides the same from just those', async () => {
    for (const format of ['jpeg', 'png', 'webp', 'gif', 'tiff'] as const) {
      const bytes = await photo(format, 16, 16);
      expect(sniffLength(bytes)).toBe(16);
      expect(sniffImageType(bytes.subarray(0, 16))).toBe(format);
    }
    for (const bytes of [heicPhoto(), await photo('avif', 16, 16)]) {
      const needed = sniffLength(bytes);
      expect(needed).toBe(bytes.readUInt32BE(0));
      expect(sniffImageType(bytes.subarray(0, needed))).toBe(sniffImageType(bytes));
    }
    expect(sniffLength(Buffer.from('just some text, not an image'))).toBe(16);
  });
});

describe('normaliseUpload', () => {
  it.each<EncodableFormat>(['jpeg', 'png', 'webp', 'avif', 'tiff', 'gif'])(
    'turns a %s into an upright JPEG with the same picture',
    async (format) => {
      const out = await normaliseUpload(await photo(format), { maxPixels });
      expect(out).toMatchObject({ contentType: 'image/jpeg', width: 120, height: 80, sourceFormat: format });
      const meta = await sharp(out.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 120, 80]);
      expect(near(await pixelAt(out.bytes, 10, 40), RED)).toBe(true);
      expect(near(await pixelAt(out.bytes, 110, 40), BLUE)).toBe(true);
    },
  );

  it('decodes a HEVC HEIC (which sharp cannot) through libheif', async () => {
    const out = await normaliseUpload(heicPhoto(), { maxPixels });
    expect(out).toMatchObject({ contentType: 'image/jpeg', width: 160, height: 120, sourceFormat: 'heif' });
    expect(near(await pixelAt(out.bytes, 20, 60), { r: 220, g: 30, b: 30 })).toBe(true);
    expect(near(await pixelAt(out.bytes, 140, 60), { r: 30, g: 60, b: 220 })).toBe(true);
  });

  it('keeps only the first frame of an animated GIF', async () => {
    const frame = (background: string) =>
      sharp({ create: { width: 40, height: 30, channels: 3, background } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame('#ff0000'), await frame('#0000ff')], { join: { animated: true } })
      .gif()
      .toBuffer();
    const out = await normaliseUpload(gif, { maxPixels });
    expect([out.width, out.height]).toEqual([40, 30]);
    expect(near(await pixelAt(out.bytes, 20, 15), { r: 255, g: 0, b: 0 })).toBe(true);
  });

  it('applies EXIF orientation and strips EXIF (with GPS) and XMP', async () => {
    const input = await sidewaysJpegWithGps();
    expect((await sharp(input).metadata()).orientation).toBe(6);
    const out = await normaliseUpload(input, { maxPixels });
    // Stored 120×80 sideways; upright it is 80×120 with the left (red) half now on top.
    expect([out.width, out.height]).toEqual([80, 120]);
    const meta = await sharp(out.bytes).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([80, 120, undefined]);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(near(await pixelAt(out.bytes, 40, 10), RED)).toBe(true);
    expect(near(await pixelAt(out.bytes, 40, 110), BLUE)).toBe(true);
    expect(out.bytes.includes('secret-exif-description')).toBe(false);
    expect(out.bytes.includes('secret-xmp-person')).toBe(false);
  });

  it('keeps an upright JPEG’s coded pixels untouched while removing its metadata, comment and trailer', async () => {
    const clean = await sharp(await photo('jpeg'))
      .withIccProfile('srgb')
      .withExif({ IFD0: { Make: 'TestCam', ImageDescription: 'secret-exif-description' } })
      .jpeg()
      .toBuffer();
    // A comment segment right after SOI, and bytes after EOI as phones append (MPF images, gain maps).
    const input = Buffer.concat([
      clean.subarray(0, 2),
      segment(0xfe, Buffer.from('secret-comment')),
      clean.subarray(2),
      Buffer.from('secret-trailer'),
    ]);
    const out = await normaliseUpload(input, { maxPixels });
    const meta = await sharp(out.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.comments ?? []).toEqual([]);
    expect(meta.icc).toBeDefined();
    for (const secret of ['secret-exif-description', 'secret-comment', 'secret-trailer']) {
      expect(out.bytes.includes(secret)).toBe(false);
    }
    expect(out.bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    // Lossless: the decoded pixels are exactly the original's.
    const [before, after] = await Promise.all([input, out.bytes].map((b) => sharp(b).raw().toBuffer()));
    expect(after!.equals(before!)).toBe(true);

    // The re-encoding path (used for rotated, CMYK or odd JPEGs) strips the same things.
    const reencoded = await normaliseUpload(input, { maxPixels, jpegPassthrough: false });
    expect((await sharp(reencoded.bytes).metadata()).exif).toBeUndefined();
    expect(reencoded.bytes.includes('secret-comment')).toBe(false);
  });

  it('keeps transparency as PNG and turns an opaque alpha channel into JPEG', async () => {
    const transparent = await normaliseUpload(await transparentPng(), { maxPixels });
    expect(transparent.contentType).toBe('image/png');
    expect((await pixelAt(transparent.bytes, 50, 20)).a).toBe(0);
    expect(await pixelAt(transparent.bytes, 10, 20)).toEqual({ r: 230, g: 20, b: 20, a: 255 });

    const opaqueWithAlpha = await sharp(await photo('png'))
      .ensureAlpha(1)
      .png()
      .toBuffer();
    expect((await sharp(opaqueWithAlpha).metadata()).hasAlpha).toBe(true);
    expect((await normaliseUpload(opaqueWithAlpha, { maxPixels })).contentType).toBe('image/jpeg');
  });

  it('reads 16-bit PNGs (with and without alpha) as 8-bit sRGB', async () => {
    const png16 = await sharp({
      create: { width: 20, height: 20, channels: 4, background: { r: 200, g: 100, b: 50, alpha: 0.5 } },
    })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(png16).metadata()).depth).toBe('ushort');
    const out = await normaliseUpload(png16, { maxPixels });
    expect(out.contentType).toBe('image/png');
    expect(near(await pixelAt(out.bytes, 5, 5), { r: 200, g: 100, b: 50 }, 3)).toBe(true);
    expect(Math.abs((await pixelAt(out.bytes, 5, 5)).a - 128)).toBeLessThanOrEqual(1);

    const opaque16 = await sharp(await photo('png'))
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(opaque16).metadata()).depth).toBe('ushort');
    const fromOpaque = await normaliseUpload(opaque16, { maxPixels });
    expect(fromOpaque.contentType).toBe('image/jpeg');
    expect(near(await pixelAt(fromOpaque.bytes, 10, 40), RED, 5)).toBe(true);
  });

  it('converts a CMYK JPEG to sRGB', async () => {
    const cmyk = await sharp(await photo('png'))
      .toColourspace('cmyk')
      .jpeg({ quality: 95 })
      .toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const out = await normaliseUpload(cmyk, { maxPixels });
    const meta = await sharp(out.bytes).metadata();
    expect([meta.space, meta.channels]).toEqual(['srgb', 3]);
    // Through CMYK the colours lose some gamut; they stay clearly red and blue.
    const left = await pixelAt(out.bytes, 10, 40);
    const right = await pixelAt(out.bytes, 110, 40);
    expect(left.r).toBeGreaterThan(200);
    expect(Math.max(left.g, left.b)).toBeLessThan(60);
    expect(right.b).toBeGreaterThan(120);
    expect(right.r).toBeLessThan(60);
  });

  it('refuses files that are not images, whatever they are called', async () => {
    for (const bytes of [Buffer.from('hello, I am a text file'), Buffer.from('<svg/>'), Buffer.alloc(100)]) {
      expect((await refusal(normaliseUpload(bytes, { maxPixels }))).userMessage).toBe(NOT_AN_IMAGE);
    }
  });

  it.each<EncodableFormat>(['jpeg', 'png', 'gif', 'tiff', 'webp'])(
    'refuses a cut-short %s',
    async (format) => {
      const whole = await photo(format);
      const err = await refusal(
        normaliseUpload(whole.subarray(0, Math.floor(whole.length * 0.6)), { maxPixels }),
      );
      expect([err.code, err.userMessage]).toEqual(['VALIDATION_FAILED', DAMAGED]);
    },
  );

  it('refuses a cut-short HEIC and a cut-short upright JPEG on the lossless path', async () => {
    const heic = heicPhoto();
    expect((await refusal(normaliseUpload(heic.subarray(0, 400), { maxPixels }))).userMessage).toBe(DAMAGED);
    const jpeg = await photo('jpeg', 400, 300);
    const cut = jpeg.subarray(0, jpeg.length - 200);
    expect(stripJpegMetadata(cut)).toBeUndefined();
    expect((await refusal(normaliseUpload(cut, { maxPixels }))).userMessage).toBe(DAMAGED);
  });

  it('refuses a decompression bomb from its header, before decoding', async () => {
    const bomb = pngBombHeader(20000, 20000);
    expect(bomb.length).toBeLessThan(100);
    const err = await refusal(normaliseUpload(bomb, { maxPixels }));
    expect(err.userMessage).toBe('This image is 20000×20000 pixels; the limit is 64 megapixels.');
    expect((await refusal(previewJpeg(bomb, { maxPixels }))).userMessage).toBe(err.userMessage);
  });

  it('applies the pixel limit to every format, HEIC included', async () => {
    const small = { maxPixels: 10_000 };
    expect((await refusal(normaliseUpload(await photo('webp', 200, 100), small))).userMessage).toBe(
      'This image is 200×100 pixels; the limit is 0.01 megapixels.',
    );
    expect((await refusal(normaliseUpload(heicPhoto(), small))).userMessage).toBe(
      'This image is 160×120 pixels; the limit is 0.01 megapixels.',
    );
  });
});

describe('previewJpeg', () => {
  it('makes a browser-viewable JPEG of a HEIC', async () => {
    const jpeg = await previewJpeg(heicPhoto(), { maxPixels });
    const meta = await sharp(jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 160, 120]);
    expect(near(await pixelAt(jpeg, 20, 60), { r: 220, g: 30, b: 30 })).toBe(true);
  });

  it('fits a large TIFF inside 1024 px and lays transparency on white', async () => {
    const tiff = await photo('tiff', 1600, 1200);
    const meta = await sharp(await previewJpeg(tiff, { maxPixels })).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1024, 768]);

    const fromPng = await previewJpeg(await transparentPng(), { maxPixels });
    expect(near(await pixelAt(fromPng, 50, 20), { r: 255, g: 255, b: 255 }, 2)).toBe(true);
  });

  it('is upright for a sideways JPEG', async () => {
    const jpeg = await previewJpeg(await sidewaysJpegWithGps(), { maxPixels });
    const meta = await sharp(jpeg).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([80, 120, undefined]);
  });
});

describe('stripJpegMetadata', () => {
  it('drops a JFIF thumbnail but keeps the JFIF header', async () => {
    const clean = await photo('jpeg', 16, 16);
    const thumb = Buffer.alloc(3 * 2 * 2, 0x7f);
    const jfif = Buffer.concat([
      Buffer.from('JFIF\0', 'latin1'),
      Buffer.from([1, 2, 0, 0, 1, 0, 1, 2, 2]),
      thumb,
    ]);
    // Replace the encoder's APP0 (if any) by one carrying a 2×2 thumbnail.
    const afterApp0 = clean[3] === 0xe0 ? 4 + clean.readUInt16BE(4) : 2;
    const input = Buffer.concat([clean.subarray(0, 2), segment(0xe0, jfif), clean.subarray(afterApp0)]);
    const out = stripJpegMetadata(input)!;
    expect(out.subarray(2, 4)).toEqual(Buffer.from([0xff, 0xe0]));
    expect(out.readUInt16BE(4)).toBe(16);
    expect(out.length).toBe(input.length - thumb.length);
    expect((await sharp(out).raw().toBuffer()).equals(await sharp(input).raw().toBuffer())).toBe(true);
  });

  it('returns undefined for broken structure', () => {
    expect(stripJpegMetadata(Buffer.from([0xff, 0xd8, 0x00, 0x00]))).toBeUndefined();
    expect(stripJpegMetadata(Buffer.from([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff]))).toBeUndefined();
    expect(stripJpegMetadata(Buffer.from('not a jpeg'))).toBeUndefined();
  });
});
