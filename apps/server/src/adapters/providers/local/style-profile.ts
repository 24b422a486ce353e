import { z } from 'zod';
import { adjustPalette, mapPalette, mixRgb, type Palette, type Rgb } from './palette.ts';

/**
 * The seam for trained styles. The training issue builds a style profile from a person's uploaded
 * images (dominant colours, contrast, saturation) and stores it; a generation that uses the trained
 * model passes `lora: { url: 'local-style:<id>', scale }`, and the local engine looks the profile up
 * through a `StyleProfileSource` and blends it into the palette.
 */

export const LOCAL_STYLE_PREFIX = 'local-style:';

export interface StyleProfile {
  /** Dominant colours of the training images, any order (sRGB 0..1). At least one. */
  palette: Rgb[];
  /** Contrast relative to neutral (1 = unchanged; 0.5..1.5 typical). */
  contrast: number;
  /** Saturation relative to neutral (1 = unchanged). */
  saturation?: number;
}

export interface StyleProfileSource {
  get(id: string): Promise<StyleProfile | undefined>;
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

const Rgb01 = z.tuple([z.number().min(0).max(1), z.number().min(0).max(1), z.number().min(0).max(1)]);
const StyleProfileSchema = z.object({
  palette: z.array(Rgb01).min(1),
  contrast: z.number().positive(),
  saturation: z.number().positive().optional(),
});

/** A stored style profile (the local trainer's JSON) read back; throws when it is not one. */
export function parseStyleProfile(bytes: Buffer): StyleProfile {
  return StyleProfileSchema.parse(JSON.parse(bytes.toString('utf8')));
}
