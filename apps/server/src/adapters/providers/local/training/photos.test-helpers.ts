import sharp from 'sharp';
import type { InputImage } from '../../image-tools.ts';

/**
 * Synthetic training photos for the local trainer's tests: JPEGs built pixel by pixel from a colour
 * function plus seeded sensor-like noise, so each property the trainer learns (warmth, darkness, a
 * centred subject, grain) is known in advance.
 */

export type Paint = (x: number, y: number) => readonly [number, number, number];

export async function photo(
  paint: Paint,
  seed: number,
  noise = 8,
  width = 480,
  height = 360,
): Promise<InputImage> {
  let s = seed * 2654435761 || 1;
  const jitter = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 4294967296 - 0.5) * noise;
  };
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = paint(x / width, y / height);
      const n = jitter();
      for (let j = 0; j < 3; j++) pixels[(y * width + x) * 3 + j] = Math.max(0, Math.min(255, c[j]! + n));
    }
  const bytes = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  return { bytes, contentType: 'image/jpeg', width, height };
}

export const photos = (count: number, paint: (i: number) => Paint, noise?: number) =>
  Promise.all(Array.from({ length: count }, (_, i) => photo(paint(i), i + 1, noise)));

/** Sunset-like oranges and reds, varying a little per photo. */
export const warm =
  (i: number): Paint =>
  (x, y) => [230 - y * 40, 120 + x * 50 - i * 4, 40 + y * 30];

/** Dim blue-grey night scenes. */
export const dark =
  (i: number): Paint =>
  (x, y) => [20 + x * 25, 25 + y * 20 + i, 45 + y * 30];

/** A red disc in the middle of a plain light background (a product shot). */
export const centredObject =
  (i: number): Paint =>
  (x, y) => {
    const dx = (x - 0.5) * (4 / 3);
    const dy = y - 0.5;
    return dx * dx + dy * dy < 0.08 ? [205, 45 + i * 4, 35] : [228, 226, 216];
  };

/** Head and shoulders on a plain backdrop, the shoulders cut by the bottom of the frame (a portrait). */
export const bust =
  (i: number): Paint =>
  (x, y) => {
    const dx = (x - 0.5) * (4 / 3);
    const head = dx * dx + (y - 0.42) * (y - 0.42) < 0.022;
    const shoulders = y > 0.66 && Math.abs(dx) < 0.22 + (y - 0.66) * 0.4;
    const neck = y > 0.5 && y <= 0.66 && Math.abs(dx) < 0.06;
    if (head || neck) return [205, 150, 120 + i * 3];
    return shoulders ? [40, 55, 120] : [228, 226, 216];
  };

/** Stripes of unrelated colours edge to edge: no single subject. */
export const busy =
  (i: number): Paint =>
  (x, y) => {
    const band = Math.floor((x + y * 0.7 + i * 0.1) * 9) % 4;
    return (
      [
        [200, 40, 40],
        [30, 160, 60],
        [40, 60, 200],
        [230, 220, 50],
      ] as const
    )[band]!;
  };

/** Mean RGB (0..255) of an image. */
export async function meanColour(bytes: Buffer): Promise<[number, number, number]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += info.channels) for (let j = 0; j < 3; j++) sum[j]! += data[i + j]!;
  const n = data.length / info.channels;
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}
