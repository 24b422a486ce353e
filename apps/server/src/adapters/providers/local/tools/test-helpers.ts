/** Shared by the local tools' tests: a recording run context, small test images and pixel statistics. */
import sharp from 'sharp';
import type { InputImage } from '../../image-tools.ts';
import type { ProgressUpdate, RunContext } from '../../text-to-image.ts';

export function recordingContext(
  overrides: Partial<RunContext> = {},
): RunContext & { progress: ProgressUpdate[]; submitted: string[] } {
  const progress: ProgressUpdate[] = [];
  const submitted: string[] = [];
  return {
    signal: new AbortController().signal,
    onProgress: (u) => void progress.push(u),
    onSubmitted: (id) => void submitted.push(id),
    progress,
    submitted,
    ...overrides,
  };
}

/** An image from a per-pixel function (RGB or RGBA), encoded as PNG. */
export async function makeImage(
  width: number,
  height: number,
  pixel: (x: number, y: number) => number[],
  channels: 3 | 4 = 3,
): Promise<InputImage> {
  const data = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = pixel(x, y);
      for (let c = 0; c < channels; c++) data[(y * width + x) * channels + c] = px[c] ?? 255;
    }
  }
  const bytes = await sharp(data, { raw: { width, height, channels } }).png().toBuffer();
  return { bytes, contentType: 'image/png', width, height };
}

/** A colourful test photo stand-in: hue across, brightness down, some texture. */
export const colourful = (width = 96, height = 64) =>
  makeImage(width, height, (x, y) => {
    const t = x / (width - 1);
    const v = 0.35 + 0.55 * (1 - y / (height - 1));
    const wobble = ((x * 7 + y * 13) % 11) - 5;
    return [
      255 * v * (0.5 + 0.5 * Math.cos(2 * Math.PI * t)) + wobble,
      255 * v * (0.5 + 0.5 * Math.cos(2 * Math.PI * (t - 1 / 3))) + wobble,
      255 * v * (0.5 + 0.5 * Math.cos(2 * Math.PI * (t - 2 / 3))) + wobble,
    ];
  });

export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export async function pixels(bytes: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export function meanRgb(img: Pixels): [number, number, number] {
  const sum = [0, 0, 0];
  const n = img.width * img.height;
  for (let p = 0; p < n; p++) for (let c = 0; c < 3; c++) sum[c]! += img.data[p * img.channels + c]!;
  return sum.map((s) => s / n) as [number, number, number];
}

/** Mean HSL-style saturation (max − min over max), 0..1. */
export function meanSaturation(img: Pixels): number {
  let sum = 0;
  const n = img.width * img.height;
  for (let p = 0; p < n; p++) {
    const i = p * img.channels;
    const r = img.data[i]!;
    const g = img.data[i + 1]!;
    const b = img.data[i + 2]!;
    const max = Math.max(r, g, b);
    sum += max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
  }
  return sum / n;
}

/** Mean absolute difference per colour channel between two same-size images. */
export function meanAbsDiff(a: Pixels, b: Pixels): number {
  let sum = 0;
  const n = a.width * a.height;
  for (let p = 0; p < n; p++) {
    for (let c = 0; c < 3; c++) sum += Math.abs(a.data[p * a.channels + c]! - b.data[p * b.channels + c]!);
  }
  return sum / (n * 3);
}
