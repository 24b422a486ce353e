import sharp, { type Color } from 'sharp';
import type { InputImage } from '../../src/adapters/providers/image-tools.ts';
import { startedForSuite } from './suite-scope.ts';

/** A real PNG of one colour, for uploads, tool inputs and stored images. */
export function solidPng(width: number, height: number, background: Color = '#3366ff'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

/** A one-colour PNG as an adapter receives an input image. */
export async function inputPng(
  width: number,
  height: number,
  [r, g, b]: [number, number, number],
): Promise<InputImage> {
  const bytes = await solidPng(width, height, { r, g, b });
  return { bytes, contentType: 'image/png', width, height };
}

/**
 * The three input images the vendors' tool tests send: a red photo (4:3), a blue person (3:4) and a
 * green product (square), each a distinct colour so a test can find them in a composed image.
 */
export function useToolInputs() {
  return startedForSuite(
    'the tool input images',
    async () => {
      const [photo, person, product] = await Promise.all([
        inputPng(40, 30, [200, 30, 30]),
        inputPng(24, 32, [30, 30, 200]),
        inputPng(16, 16, [30, 200, 30]),
      ]);
      return { photo, person, product };
    },
    () => undefined,
  );
}

/**
 * Whether two encoded images have the same pixels. A stored original is the vendor's image with our
 * content credentials added (adapters/c2pa), so its bytes differ from what the vendor sent; its
 * pixels must not.
 */
export async function samePixels(a: Buffer, b: Buffer): Promise<boolean> {
  const [pa, pb] = await Promise.all([a, b].map((bytes) => sharp(bytes).raw().toBuffer()));
  return pa!.equals(pb!);
}
