import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { InputImage, ProductHoldingRequest } from '../../image-tools.ts';
import { ProviderError } from '../../text-to-image.ts';
import { LocalTextToImage } from '../local.text-to-image.ts';
import { toolRun } from './common.ts';
import { LocalImageTools } from './local.image-tools.ts';
import { cutOut } from './product.ts';
import { makeImage, pixels, recordingContext, type Pixels } from './test-helpers.ts';

const tools = new LocalImageTools({ ffmpegPath: 'unused', textToImage: new LocalTextToImage() });

/** A "person" photo: a blue-grey gradient with a darker figure, no red and no green in it. */
const person = (width = 200, height = 150) =>
  makeImage(width, height, (x, y) => {
    const inFigure =
      (x - width / 2) ** 2 / (width * 0.2) ** 2 + (y - height * 0.6) ** 2 / (height * 0.4) ** 2 < 1;
    return inFigure ? [40, 45, 70] : [120 + y / 3, 130 + y / 3, 170 + x / 10];
  });

const RED: [number, number, number] = [210, 30, 40];
const GREEN_BG: [number, number, number] = [40, 190, 70];

/** A red bottle with a white label, on a plain green backdrop. */
const product = () =>
  makeImage(120, 160, (x, y) => {
    const inBottle = x >= 35 && x < 85 && y >= 20 && y < 150;
    const inLabel = x >= 45 && x < 75 && y >= 70 && y < 100;
    return inLabel ? [255, 255, 255] : inBottle ? RED : GREEN_BG;
  });

async function compose(over: Partial<ProductHoldingRequest> = {}): Promise<Pixels & { contentType: string }> {
  const result = await tools.run(
    {
      tool: 'product_holding',
      providerModel: 'local/product',
      seed: 3,
      person: await person(),
      product: await product(),
      aspectRatio: '3:4',
      width: 240,
      height: 320,
      ...over,
    },
    recordingContext(),
  );
  if (result.kind !== 'images') throw new Error('expected images');
  const image = result.images[0]!;
  const px = await pixels(image.bytes);
  expect([px.width, px.height]).toEqual([image.width, image.height]);
  return { ...px, contentType: image.contentType };
}

const isNear = (px: Pixels, p: number, rgb: number[], tolerance: number) =>
  Math.abs(px.data[p * px.channels]! - rgb[0]!) +
    Math.abs(px.data[p * px.channels + 1]! - rgb[1]!) +
    Math.abs(px.data[p * px.channels + 2]! - rgb[2]!) <
  tolerance;

/** Share of pixels in a region (fractions of the frame) close to a colour. */
function share(px: Pixels, rgb: number[], region = { x0: 0, x1: 1, y0: 0, y1: 1 }, tolerance = 90): number {
  let hits = 0;
  let total = 0;
  for (let y = Math.floor(region.y0 * px.height); y < region.y1 * px.height; y++) {
    for (let x = Math.floor(region.x0 * px.width); x < region.x1 * px.width; x++) {
      total++;
      if (isNear(px, y * px.width + x, rgb, tolerance)) hits++;
    }
  }
  return hits / total;
}

describe('local product holding', () => {
  it('fills the requested size with the person, the product cut out in the lower middle', async () => {
    for (const [width, height] of [
      [240, 320],
      [320, 180],
    ] as const) {
      const out = await compose({ width, height });
      expect([out.width, out.height]).toEqual([width, height]);
      expect(out.contentType).toBe('image/jpeg');
      // The product (red) is in the lower middle, not at the top or the sides.
      expect(share(out, RED, { x0: 0.44, x1: 0.56, y0: 0.8, y1: 0.9 })).toBeGreaterThan(0.6);
      expect(share(out, RED, { x0: 0, x1: 1, y0: 0, y1: 0.4 })).toBe(0);
      expect(share(out, RED, { x0: 0, x1: 0.2, y0: 0, y1: 1 })).toBe(0);
      // Its backdrop (green) was not pasted, not even as a fringe.
      expect(share(out, GREEN_BG, undefined, 120)).toBeLessThan(0.001);
      // The white label inside the product survives (it is not connected to the backdrop).
      expect(share(out, [255, 255, 255], { x0: 0.35, x1: 0.65, y0: 0.5, y1: 0.93 }, 60)).toBeGreaterThan(
        0.01,
      );
    }
  });

  it('throws a shadow below and to the right of the product', async () => {
    const plainPerson = await makeImage(200, 200, () => [200, 200, 200]);
    const out = await compose({ person: plainPerson, width: 200, height: 200 });
    // Just below the product's bottom edge (at 93% of the height), the grey backdrop is darker than far away.
    const at = (x: number, y: number) => out.data[(y * out.width + x) * out.channels + 1]!;
    expect(at(100, 190)).toBeLessThan(at(100, 20) - 10);
  });

  it('a light-direction prompt tones the picture; other words are ignored', async () => {
    const neutral = await compose({ prompt: 'on a beach, smiling' });
    const plain = await compose();
    expect(neutral.data.equals(plain.data)).toBe(true);
    const warm = await compose({ prompt: 'warm golden light' });
    const mean = (px: Pixels, c: number) => {
      let s = 0;
      for (let p = 0; p < px.width * px.height; p++) s += px.data[p * px.channels + c]!;
      return s / (px.width * px.height);
    };
    expect(mean(warm, 0) - mean(warm, 2)).toBeGreaterThan(mean(plain, 0) - mean(plain, 2) + 5);
  });

  it('refuses sizes out of range with a clear sentence', async () => {
    await expect(compose({ width: 10, height: 320 })).rejects.toMatchObject({
      kind: 'rejected',
      userMessage: expect.stringMatching(/width must be a whole number of pixels from 64 to 4096/),
    });
  });
});

describe('cutOut', () => {
  const run = toolRun(recordingContext(), 1);
  const raw = async (image: InputImage, keepAlpha = false) => {
    const decoded = sharp(image.bytes);
    const { data, info } = await (keepAlpha ? decoded.ensureAlpha() : decoded.removeAlpha())
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  };

  it('removes a plain backdrop and trims to the product', async () => {
    const cut = await cutOut(await raw(await product()), run);
    expect(cut.method).toBe('background');
    // The bottle is 50 × 130; the feathered edge adds a pixel or two.
    expect(cut.width).toBeGreaterThanOrEqual(50);
    expect(cut.width).toBeLessThanOrEqual(54);
    expect(cut.height).toBeGreaterThanOrEqual(130);
    expect(cut.height).toBeLessThanOrEqual(134);
    const alphaAt = (x: number, y: number) => cut.data[(y * cut.width + x) * 4 + 3]!;
    expect(alphaAt(Math.floor(cut.width / 2), Math.floor(cut.height / 2))).toBe(255);
    expect(alphaAt(0, 0)).toBeLessThan(255);
  });

  it('keeps the alpha of a product that already has a transparent background', async () => {
    const png = await makeImage(
      60,
      60,
      (x, y) => [0, 0, 255, (x - 30) ** 2 + (y - 30) ** 2 < 400 ? 255 : 0],
      4,
    );
    const cut = await cutOut(await raw(png, true), run);
    expect(cut.method).toBe('alpha');
    expect(cut.width).toBeLessThanOrEqual(41);
  });

  it('places a photo with a busy border whole, as a rounded card', async () => {
    const busy = await makeImage(80, 60, (x, y) => [(x * 37) % 256, (y * 53) % 256, ((x + y) * 29) % 256]);
    const cut = await cutOut(await raw(busy), run);
    expect(cut.method).toBe('whole');
    expect([cut.width, cut.height]).toEqual([80, 60]);
    expect(cut.data[3]).toBeLessThan(128); // a rounded corner
    expect(cut.data[(30 * 80 + 40) * 4 + 3]).toBe(255);
  });

  it('gives a clear error for an unreadable product file', async () => {
    const error = await tools
      .run(
        {
          tool: 'product_holding',
          providerModel: 'local/product',
          seed: 1,
          person: await person(),
          product: { bytes: Buffer.from('not an image'), contentType: 'image/png', width: 10, height: 10 },
          aspectRatio: '1:1',
          width: 128,
          height: 128,
        },
        recordingContext(),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      kind: 'rejected',
      userMessage: expect.stringMatching(/product image is not an image we can read/),
    });
  });
});
