import { oklabFromBytes } from './oklab.ts';

/**
 * What one photo contributes to a style profile, measured on its decoded pixels (sRGB bytes, 3 per
 * pixel) at a reduced size: colours for the palette, its luminance histogram for the tone curve,
 * contrast and saturation, its average colour (to find the most typical photo), and texture.
 */

export interface ColourStatistics {
  /** Up to PALETTE_SAMPLES_PER_PHOTO Oklab triples, evenly spread over the photo. */
  samples: Float32Array;
  /** Share of pixels per luminance byte (256 bins, sums to 1). */
  histogram: Float64Array;
  /** Standard deviation of luminance, 0..1. */
  contrast: number;
  /** Mean HSV saturation, 0..1. */
  saturation: number;
  /** Mean Oklab colour and luminance spread: where the photo sits among the others. */
  signature: [number, number, number, number];
}

export interface TextureStatistics {
  /** Noise standard deviation, 0..1 of full scale (Immerkær's fast estimator). */
  grain: number;
  /** Mean absolute luminance gradient per pixel, 0..1. */
  detail: number;
}

export const PALETTE_SAMPLES_PER_PHOTO = 4000;

export const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

export function measureColour(rgb: Buffer, width: number, height: number): ColourStatistics {
  const n = width * height;
  const step = Math.max(1, Math.floor(n / PALETTE_SAMPLES_PER_PHOTO));
  const samples = new Float32Array(Math.ceil(n / step) * 3);
  const histogram = new Float64Array(256);
  let sum = 0;
  let sum2 = 0;
  let sat = 0;
  let la = 0;
  let aa = 0;
  let ba = 0;
  let s = 0;
  for (let p = 0; p < n; p++) {
    const r = rgb[p * 3]!;
    const g = rgb[p * 3 + 1]!;
    const b = rgb[p * 3 + 2]!;
    const y = luma(r, g, b);
    histogram[Math.min(255, Math.round(y))]!++;
    sum += y;
    sum2 += y * y;
    const max = Math.max(r, g, b);
    sat += max === 0 ? 0 : (max - Math.min(r, g, b)) / max;
    if (p % step === 0) {
      oklabFromBytes(r, g, b, samples, s * 3);
      la += samples[s * 3]!;
      aa += samples[s * 3 + 1]!;
      ba += samples[s * 3 + 2]!;
      s++;
    }
  }
  for (let i = 0; i < 256; i++) histogram[i]! /= n;
  const mean = sum / n;
  const contrast = Math.sqrt(Math.max(0, sum2 / n - mean * mean)) / 255;
  return {
    samples: samples.subarray(0, s * 3),
    histogram,
    contrast,
    saturation: sat / n,
    signature: [la / s, aa / s, ba / s, contrast],
  };
}

/**
 * Grain: Immerkær (1996), "Fast noise variance estimation": the photo convolved with a kernel that
 * cancels smooth gradients and edges to first order, so what remains is mostly sensor or film noise.
 * Detail: the mean absolute gradient (edge energy), which tells a crisp photo from a soft one.
 */
export function measureTexture(rgb: Buffer, width: number, height: number): TextureStatistics {
  if (width < 3 || height < 3) return { grain: 0, detail: 0 };
  const y = new Float32Array(width * height);
  for (let p = 0; p < y.length; p++) y[p] = luma(rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!);
  let noise = 0;
  let gradient = 0;
  for (let r = 1; r < height - 1; r++) {
    for (let c = 1; c < width - 1; c++) {
      const i = r * width + c;
      const up = i - width;
      const down = i + width;
      noise += Math.abs(
        y[up - 1]! -
          2 * y[up]! +
          y[up + 1]! -
          2 * y[i - 1]! +
          4 * y[i]! -
          2 * y[i + 1]! +
          y[down - 1]! -
          2 * y[down]! +
          y[down + 1]!,
      );
      gradient += Math.abs(y[i + 1]! - y[i - 1]!) / 2 + Math.abs(y[down]! - y[up]!) / 2;
    }
  }
  const inner = (width - 2) * (height - 2);
  const sigma = (Math.sqrt(Math.PI / 2) / (6 * inner)) * noise;
  return { grain: Math.min(0.5, sigma / 255), detail: Math.min(1, gradient / inner / 255) };
}
