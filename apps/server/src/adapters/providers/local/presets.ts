import type { Palette } from './palette.ts';
import { THEMES, mixPalettes } from './palette.ts';
import type { Texture } from './prompt-analysis.ts';

/**
 * The local engine's "models": rendering presets. Pure data (no sharp import) so the catalogue can
 * validate `local/<preset>` model names without loading the renderer.
 */

export interface LocalPreset {
  providerModel: `local/${string}`;
  /** The neutral palette a prompt blends away from as promptStrength rises. */
  base: Palette;
  /** Texture when the prompt names none. */
  defaultTexture: Texture;
  saturation: number;
  contrast: number;
  /** Low-poly facets across the longest side when the texture is geometric. */
  facets: number;
  /** 0..1: soft light bloom around the sun/moon and bright accents. */
  bloom: number;
  /** Film grain amplitude (0..255 units) applied by default. */
  grain: number;
}

export const LOCAL_PRESETS = {
  'local/aurora': {
    providerModel: 'local/aurora',
    base: mixPalettes(THEMES.dawn, THEMES.ocean, 0.35),
    defaultTexture: 'smooth',
    saturation: 1,
    contrast: 1,
    facets: 26,
    bloom: 0.8,
    grain: 5,
  },
  'local/prism': {
    providerModel: 'local/prism',
    base: mixPalettes(THEMES.pastel, THEMES.neon, 0.3),
    defaultTexture: 'geometric',
    saturation: 1.15,
    contrast: 1.08,
    facets: 18,
    bloom: 0.35,
    grain: 0,
  },
} as const satisfies Record<string, LocalPreset>;

export type LocalModelName = keyof typeof LOCAL_PRESETS;
export const LOCAL_MODEL_NAMES = Object.keys(LOCAL_PRESETS) as LocalModelName[];

export function localPreset(providerModel: string): LocalPreset | undefined {
  return (LOCAL_PRESETS as Record<string, LocalPreset>)[providerModel];
}
