import { z } from 'zod';
import { adjustPalette, mapPalette, mixRgb, type Palette, type Rgb } from './palette.ts';

/**
 * The seam for trained styles. The local trainer (training/local-trainer.ts) learns a style profile
 * from a person's uploaded photos (dominant colours, tone curve, contrast, saturation, texture and a
 * cut-out subject) and it is stored as JSON; a generation that uses the trained model passes
 * `lora: { url: 'local-style:<id>', scale }`, and the local engine looks the profile up through a
 * `StyleProfileSource` and applies it (palette here, the rest in style-layers.ts).
 */

export const LOCAL_STYLE_PREFIX = 'local-style:';

/** The representative subject of the photos, cut out of its background. */
export interface StyleSubject {
  /** RGBA PNG, base64, at most SUBJECT_MAX_SIDE px on each side; transparent around the subject. */
  png: string;
  width: number;
  height: number;
  /**
   * Where the subject sat in its photo, as fractions of that photo (centre x, centre y, height), and
   * whether it stood on the bottom edge (then the engine stands it on the bottom of the picture).
   */
  placement: { x: number; y: number; height: number; grounded?: boolean };
}

export interface StyleTexture {
  /** Noise amplitude of the photos: the standard deviation of their fine grain, 0..1 of full scale. */
  grain: number;
  /** Mean luminance gradient per pixel (edge energy), 0..1 of full scale. */
  detail: number;
}

export interface StyleProfile {
  /** Dominant colours of the training images, most common first (sRGB 0..1). At least one. */
  palette: Rgb[];
  /** Share of the photos' pixels nearest each palette colour (same order, sums to ~1). */
  weights?: number[];
  /** Contrast relative to neutral (1 = unchanged; 0.5..1.5 typical). */
  contrast: number;
  /** Saturation relative to neutral (1 = unchanged). */
  saturation?: number;
  /**
   * The photos' luminance at TONE_CURVE_POINTS evenly spaced quantiles (0 = darkest … 1 = brightest),
   * non-decreasing, 0..1: the renderer matches its own luminance distribution to it.
   */
  toneCurve?: number[];
  texture?: StyleTexture;
  /** Absent or null when no photo had a clear subject (or the training was of a style). */
  subject?: StyleSubject | null;
}

export interface StyleProfileSource {
  get(id: string): Promise<StyleProfile | undefined>;
}

export const TONE_CURVE_POINTS = 16;
export const SUBJECT_MAX_SIDE = 512;

const unit = z.number().min(0).max(1);
const PNG_SIGNATURE = '89504e470d0a1a0a';

const StyleProfileSchema = z
  .object({
    palette: z
      .array(z.tuple([unit, unit, unit]))
      .min(1)
      .max(16),
    weights: z.array(z.number().min(0).max(1)).optional(),
    contrast: z.number().min(0.25).max(4),
    saturation: z.number().min(0).max(4).optional(),
    toneCurve: z
      .array(unit)
      .length(TONE_CURVE_POINTS)
      .refine((c) => c.every((v, i) => i === 0 || v >= c[i - 1]!), 'the tone curve must not decrease')
      .optional(),
    texture: z.object({ grain: z.number().min(0).max(0.5), detail: unit }).optional(),
    subject: z
      .object({
        // ~3 MB of base64 is far above what a 512 px PNG needs; bounds what a damaged file can make us decode.
        png: z
          .base64()
          .max(4_000_000)
          .refine(
            (s) => Buffer.from(s.slice(0, 12), 'base64').subarray(0, 8).toString('hex') === PNG_SIGNATURE,
            'the subject must be a PNG',
          ),
        width: z.int().min(1).max(SUBJECT_MAX_SIDE),
        height: z.int().min(1).max(SUBJECT_MAX_SIDE),
        placement: z.object({ x: unit, y: unit, height: unit, grounded: z.boolean().optional() }),
      })
      .nullable()
      .optional(),
  })
  .refine((p) => !p.weights || p.weights.length === p.palette.length, {
    message: 'weights must match the palette',
    path: ['weights'],
  });

/** Reads a stored profile; throws on anything that is not a valid profile (bad JSON, fields, PNG). */
export function parseStyleProfile(bytes: Buffer): StyleProfile {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new Error('Malformed style profile: not JSON', { cause: err });
  }
  const parsed = StyleProfileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`Malformed style profile: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function serializeStyleProfile(profile: StyleProfile): Buffer {
  return Buffer.from(JSON.stringify(profile));
}

const luminance = (c: Rgb) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];

/**
 * Blends a profile into a palette: each slot moves toward the profile colour of the nearest
 * luminance (so dark slots take the style's darks and light slots its lights), by `scale` (0..2,
 * clamped to a full blend at 1.5).
 */
export function applyStyleProfile(palette: Palette, profile: StyleProfile, scale: number): Palette {
  const amount = Math.max(0, Math.min(1, scale / 1.5));
  if (amount === 0 || profile.palette.length === 0) return palette;
  const sorted = [...profile.palette].sort((a, b) => luminance(a) - luminance(b));
  const blended = mapPalette(palette, (c) => {
    const l = luminance(c);
    let best = sorted[0]!;
    for (const s of sorted) if (Math.abs(luminance(s) - l) < Math.abs(luminance(best) - l)) best = s;
    // Keep the slot's own lightness role: take the style's colour, nudged toward the slot's luminance.
    const target = mixRgb(best, c, 0.25);
    return mixRgb(c, target, amount);
  });
  return adjustPalette(blended, {
    contrast: 1 + (profile.contrast - 1) * amount,
    saturation: 1 + ((profile.saturation ?? 1) - 1) * amount,
    brightness: 0,
    warmth: 0,
  });
}
