import { UPSCALE_MAX_SIDE } from '@lumina/contracts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { InputImage, ProviderImage } from '../../image-tools.ts';
import { LocalTextToImage } from '../local.text-to-image.ts';
import { LocalImageTools } from './local.image-tools.ts';
import { colourful, makeImage, pixels, recordingContext } from './test-helpers.ts';

const tools = new LocalImageTools({ ffmpegPath: 'unused', textToImage: new LocalTextToImage() });

async function upscale(image: InputImage, factor: 2 | 4): Promise<ProviderImage> {
  const result = await tools.run(
    { tool: 'upscale', providerModel: 'local/upscale', seed: 1, image, factor },
    recordingContext(),
  );
  if (result.kind !== 'images') throw new Error('expected images');
  return result.images[0]!;
}

/** Mean absolute difference between horizontal neighbours: how crisp edges are. */
async function edgeEnergy(bytes: Buffer): Promise<number> {
  const px = await pixels(bytes);
  let sum = 0;
  for (let y = 0; y < px.height; y++) {
    for (let x = 1; x < px.width; x++) {
      const i = (y * px.width + x) * px.channels;
      sum += Math.abs(px.data[i]! - px.data[i - px.channels]!);
    }
  }
  return sum / (px.height * (px.width - 1));
}

describe('local upscale', () => {
  it('makes exactly 2× and 4× the width and height, as PNG for small results', async () => {
    const image = await colourful(75, 41);
    for (const factor of [2, 4] as const) {
      const out = await upscale(image, factor);
      expect([out.width, out.height, out.contentType]).toEqual([75 * factor, 41 * factor, 'image/png']);
      const meta = await sharp(out.bytes).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([75 * factor, 41 * factor, 'png']);
    }
  });

  it('sharpens: edges are crisper than a plain Lanczos enlargement', async () => {
    const checks = await makeImage(40, 40, (x, y) =>
      ((x >> 3) + (y >> 3)) % 2 ? [230, 230, 230] : [30, 30, 30],
    );
    const plain = await sharp(checks.bytes).resize(80, 80, { kernel: 'lanczos3' }).png().toBuffer();
    const out = await upscale(checks, 2);
    expect(await edgeEnergy(out.bytes)).toBeGreaterThan((await edgeEnergy(plain)) * 1.05);
  });

  it('above 4 megapixels answers a JPEG (a WebP when the image is transparent)', async () => {
    const opaque = await makeImage(1001, 1000, (x, y) => [x % 256, y % 256, 128]);
    const big = await upscale(opaque, 2);
    expect([big.width, big.height, big.contentType]).toEqual([2002, 2000, 'image/jpeg']);
    expect((await sharp(big.bytes).metadata()).format).toBe('jpeg');

    const clear = await makeImage(1001, 1000, (x) => [200, 40, 40, x < 500 ? 0 : 255], 4);
    const webp = await upscale(clear, 2);
    expect(webp.contentType).toBe('image/webp');
    const meta = await sharp(webp.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['webp', 2002, 2000, true]);
  });

  it(`refuses results over ${UPSCALE_MAX_SIDE} px a side, suggesting 2×`, async () => {
    const wide = await makeImage(2100, 8, () => [1, 2, 3]);
    await expect(upscale(wide, 4)).rejects.toMatchObject({
      kind: 'rejected',
      userMessage: expect.stringMatching(/would be 8400 × 32 pixels.*Try 2× instead\./),
    });
  });
});
