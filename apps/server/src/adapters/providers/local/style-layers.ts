import sharp from 'sharp';
import type { Canvas } from './canvas.ts';
import type { Rng } from './random.ts';
import type { StyleProfile, StyleSubject, StyleTexture } from './style-profile.ts';

/**
 * The parts of a trained style profile that act on pixels rather than on the palette (that is
 * applyStyleProfile): the cut-out subject as the picture's main subject, the photos' tone curve and
 * their texture. `scale` is the request's lora_scale (0..2): at 0 nothing of the profile shows, at 1
 * it shows clearly, above 1 the subject grows and the grain strengthens further.
 */

export interface AppliedStyle {
  profile: StyleProfile;
  scale: number;
}

/** How much of the subject and tone curve show: none at scale 0, fully from scale 1. */
const visibility = (scale: number) => Math.max(0, Math.min(1, scale));

/**
 * Composites the subject onto the working canvas, placed roughly where it sat in its photo (pulled
 * toward the centre, or standing on the bottom edge if it stood on its photo's) and nudged by the
 * seed so each seed frames it a little differently.
 */
export async function paintSubject(
  canvas: Canvas,
  subject: StyleSubject,
  scale: number,
  rng: Rng,
): Promise<void> {
  const opacity = visibility(scale);
  if (opacity === 0) return;
  const { width: W, height: H, data } = canvas;
  const grow = scale > 1 ? 1 + 0.25 * (scale - 1) : 1;
  let h = H * Math.min(0.75, Math.max(0.35, subject.placement.height)) * grow;
  let w = (h * subject.width) / subject.height;
  if (w > W * 0.85) {
    h *= (W * 0.85) / w;
    w = W * 0.85;
  }
  const tw = Math.max(1, Math.round(w));
  const th = Math.max(1, Math.round(h));
  const { data: px } = await sharp(Buffer.from(subject.png, 'base64'))
    .ensureAlpha()
    .resize(tw, th, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const cx = W * (0.5 + (subject.placement.x - 0.5) * 0.5 + rng.range(-0.08, 0.08));
  const cy = H * (0.5 + (subject.placement.y - 0.5) * 0.5 + rng.range(-0.04, 0.04));
  const left = Math.round(Math.min(W - tw, Math.max(0, cx - tw / 2)));
  const top = subject.placement.grounded ? H - th : Math.round(Math.min(H - th, Math.max(0, cy - th / 2)));
  for (let y = 0; y < th; y++) {
    const row = top + y;
    if (row < 0 || row >= H) continue;
    for (let x = 0; x < tw; x++) {
      const col = left + x;
      if (col < 0 || col >= W) continue;
      const s = (y * tw + x) * 4;
      const a = (px[s + 3]! / 255) * opacity;
      if (a === 0) continue;
      const d = (row * W + col) * 3;
      data[d] = data[d]! + (px[s]! / 255 - data[d]!) * a;
      data[d + 1] = data[d + 1]! + (px[s + 1]! / 255 - data[d + 1]!) * a;
      data[d + 2] = data[d + 2]! + (px[s + 2]! / 255 - data[d + 2]!) * a;
    }
  }
}

const BINS = 1024;
const lum = (d: Float32Array, i: number) => 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;

/**
 * Histogram matching: each pixel's luminance rank in this image is looked up on the photos' tone
 * curve, so the render gets the photos' darks, mid-tones and highlights (a dark set makes dark
 * pictures) while keeping its own composition. Colours are scaled with their luminance, keeping hue.
 */
export function matchToneCurve(canvas: Canvas, curve: number[], scale: number): void {
  const amount = visibility(scale);
  if (amount === 0 || curve.length < 2) return;
  const d = canvas.data;
  const counts = new Float64Array(BINS);
  const bin = (l: number) => Math.min(BINS - 1, Math.max(0, Math.floor(l * BINS)));
  for (let i = 0; i < d.length; i += 3) counts[bin(lum(d, i))]!++;
  // Rank of each bin's centre: the share of pixels darker, plus half of its own.
  const pixels = d.length / 3;
  const rank = new Float64Array(BINS);
  let below = 0;
  for (let b = 0; b < BINS; b++) {
    rank[b] = (below + counts[b]! / 2) / pixels;
    below += counts[b]!;
  }
  const last = curve.length - 1;
  const target = new Float64Array(BINS);
  for (let b = 0; b < BINS; b++) {
    const t = rank[b]! * last;
    const k = Math.min(last - 1, Math.floor(t));
    target[b] = curve[k]! + (curve[k + 1]! - curve[k]!) * (t - k);
  }
  limitSlope(target);
  for (let i = 0; i < d.length; i += 3) {
    const l = lum(d, i);
    const goal = l + (target[bin(l)]! - l) * amount;
    if (l > 1e-3) {
      const k = goal / l;
      d[i] = d[i]! * k;
      d[i + 1] = d[i + 1]! * k;
      d[i + 2] = d[i + 2]! * k;
    } else {
      d[i] = d[i + 1] = d[i + 2] = goal;
    }
  }
}

/**
 * Largest rise of the transfer function per unit of luminance. A set with a big flat area (a plain
 * backdrop) has a tone curve that jumps; followed exactly, it would turn the slight noise of a flat
 * region of the render into speckle. Limited as in CLAHE, from both ends, then averaged.
 */
const MAX_SLOPE = 3;

function limitSlope(target: Float64Array): void {
  const step = MAX_SLOPE / target.length;
  const up = Float64Array.from(target);
  const down = Float64Array.from(target);
  for (let b = 1; b < target.length; b++) up[b] = Math.min(up[b]!, up[b - 1]! + step);
  for (let b = target.length - 2; b >= 0; b--) down[b] = Math.max(down[b]!, down[b + 1]! - step);
  for (let b = 0; b < target.length; b++) target[b] = (up[b]! + down[b]!) / 2;
}

/**
 * Extra film grain for the render (the peak-to-peak amplitude in 8-bit levels that finishes.grain
 * takes): the photos' noise standard deviation, converted for uniform noise (× √12), times the scale.
 */
export function styleGrain(texture: StyleTexture | undefined, scale: number): number {
  if (!texture) return 0;
  return texture.grain * 255 * Math.sqrt(12) * Math.max(0, Math.min(2, scale));
}

/**
 * Sharpening for crisp photo sets: procedural layers are soft, so a set whose edge energy is above a
 * soft photo's (~1 % per pixel at the 1024 px it is measured at) gets unsharp masking in proportion.
 */
export function styleSharpen(
  texture: StyleTexture | undefined,
  scale: number,
): { sigma: number; m1: number; m2: number } | undefined {
  if (!texture) return undefined;
  const amount = Math.min(1, Math.max(0, (texture.detail - 0.01) / 0.03)) * Math.max(0, Math.min(2, scale));
  if (amount === 0) return undefined;
  return { sigma: 1, m1: 0.5 * amount, m2: 2 * amount };
}
