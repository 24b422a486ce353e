import type { Rgb } from './palette.ts';

/** An RGB float canvas (0..1 per channel, row-major, 3 floats per pixel) the layers paint into. */
export interface Canvas {
  readonly width: number;
  readonly height: number;
  readonly data: Float32Array;
}

export function createCanvas(width: number, height: number): Canvas {
  return { width, height, data: new Float32Array(width * height * 3) };
}

export const smoothstep = (e0: number, e1: number, x: number): number => {
  const t = x <= e0 ? 0 : x >= e1 ? 1 : (x - e0) / (e1 - e0);
  return t * t * (3 - 2 * t);
};

export const clamp01 = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Alpha-blends `c` over the pixel at float index `i` (= 3 × pixel index). */
export function blend(d: Float32Array, i: number, c: Rgb, a: number): void {
  d[i] = d[i]! + (c[0] - d[i]!) * a;
  d[i + 1] = d[i + 1]! + (c[1] - d[i + 1]!) * a;
  d[i + 2] = d[i + 2]! + (c[2] - d[i + 2]!) * a;
}

/** Screen-blends light `c` × `a` onto the pixel (brightens, never darkens, never clips). */
export function screen(d: Float32Array, i: number, c: Rgb, a: number): void {
  d[i] = 1 - (1 - d[i]!) * (1 - c[0] * a);
  d[i + 1] = 1 - (1 - d[i + 1]!) * (1 - c[1] * a);
  d[i + 2] = 1 - (1 - d[i + 2]!) * (1 - c[2] * a);
}

/** Converts to 8-bit RGB for sharp. */
export function toBytes(canvas: Canvas): Buffer {
  const src = canvas.data;
  const out = Buffer.allocUnsafe(src.length);
  for (let i = 0; i < src.length; i++) {
    const v = src[i]! * 255 + 0.5;
    out[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  return out;
}
