/**
 * CIE L*a*b* (D65) conversions for 8-bit sRGB pixels, and the colour statistics the style transfer
 * matches. Lab separates lightness from the two colour axes and is close to perceptually uniform, so
 * moving a channel's mean and spread changes tone or colour without the other (Reinhard et al. 2001).
 */

const SRGB_TO_LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  SRGB_TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

const XN = 0.95047;
const ZN = 1.08883;
const EPS = 216 / 24389;
const KAPPA = 24389 / 27;

const f = (t: number) => (t > EPS ? Math.cbrt(t) : (KAPPA * t + 16) / 116);
const fInv = (t: number) => {
  const t3 = t * t * t;
  return t3 > EPS ? t3 : (116 * t - 16) / KAPPA;
};

/** 8-bit sRGB pixels (3 or 4 channels; alpha ignored) to interleaved L, a, b floats. */
export function rgbToLab(data: Uint8Array, channels: number): Float32Array {
  const n = Math.floor(data.length / channels);
  const out = new Float32Array(n * 3);
  for (let p = 0, i = 0; p < n; p++, i += channels) {
    const r = SRGB_TO_LINEAR[data[i]!]!;
    const g = SRGB_TO_LINEAR[data[i + 1]!]!;
    const b = SRGB_TO_LINEAR[data[i + 2]!]!;
    const fx = f((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / XN);
    const fy = f(0.2126729 * r + 0.7151522 * g + 0.072175 * b);
    const fz = f((0.0193339 * r + 0.119192 * g + 0.9503041 * b) / ZN);
    out[p * 3] = 116 * fy - 16;
    out[p * 3 + 1] = 500 * (fx - fy);
    out[p * 3 + 2] = 200 * (fy - fz);
  }
  return out;
}

const linearToSrgb8 = (c: number) => {
  const v = c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
  return v <= 0 ? 0 : v >= 1 ? 255 : Math.round(v * 255);
};

/** Writes Lab pixels back as 8-bit sRGB into `out` (3 channels), clipping out-of-gamut colours. */
export function labToRgb(lab: Float32Array, out: Uint8Array, from = 0, to = lab.length / 3): void {
  for (let p = from; p < to; p++) {
    const fy = (lab[p * 3]! + 16) / 116;
    const fx = fy + lab[p * 3 + 1]! / 500;
    const fz = fy - lab[p * 3 + 2]! / 200;
    const x = fInv(fx) * XN;
    const y = fInv(fy);
    const z = fInv(fz) * ZN;
    out[p * 3] = linearToSrgb8(3.2404542 * x - 1.5371385 * y - 0.4985314 * z);
    out[p * 3 + 1] = linearToSrgb8(-0.969266 * x + 1.8760108 * y + 0.041556 * z);
    out[p * 3 + 2] = linearToSrgb8(0.0556434 * x - 0.2040259 * y + 1.0572252 * z);
  }
}

export interface ChannelStats {
  mean: [number, number, number];
  std: [number, number, number];
}

/** Mean and standard deviation of each Lab channel. */
export function labStats(lab: Float32Array): ChannelStats {
  const n = lab.length / 3;
  const sum = [0, 0, 0];
  const sq = [0, 0, 0];
  for (let p = 0; p < n; p++) {
    for (let c = 0; c < 3; c++) {
      const v = lab[p * 3 + c]!;
      sum[c]! += v;
      sq[c]! += v * v;
    }
  }
  const mean = sum.map((s) => s / n) as ChannelStats['mean'];
  const std = sq.map((s, c) => Math.sqrt(Math.max(0, s / n - mean[c]! ** 2))) as ChannelStats['std'];
  return { mean, std };
}

/** Rec. 709 luma of 8-bit RGB, 0..255. */
export const luma = (r: number, g: number, b: number) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
