import type { LocalPreset } from './presets.ts';
import type { Scene, Texture } from './prompt-analysis.ts';
import type { Rng } from './random.ts';

/**
 * Turns a scene (what the prompt asked for) into a plan (where things go, how strong they are).
 * All layout randomness comes from the seeded generator, so a seed picks one composition.
 */

export type Ground = 'mountains' | 'hills' | 'dunes';

export interface Plan {
  /** Horizon line as a fraction of the height (1 = no horizon). */
  horizon: number;
  disc: { kind: 'sun' | 'moon'; x: number; y: number; r: number } | null;
  stars: number;
  clouds: number;
  fog: number;
  ground: Ground | null;
  layers: number;
  forest: boolean;
  snow: boolean;
  city: boolean;
  water: boolean;
  waves: boolean;
  figure: { longHair: boolean; x: number; scale: number; halo: boolean } | null;
  abstract: boolean;
  texture: Texture;
  minimal: boolean;
  grain: number;
  vignette: number;
  bloom: number;
  /** 0..1: how far the final image is desaturated (monochrome, sepia). */
  mono: number;
  /** 0..1: opacity of prompt elements (promptStrength). */
  presence: number;
}

const COMPOSITION: ReadonlyArray<keyof Plan | string> = [
  'mountains',
  'hills',
  'forest',
  'city',
  'figure',
  'water',
  'abstract',
];

export function planScene(scene: Scene, preset: LocalPreset, strength: number, rng: Rng): Plan {
  const el = new Set(scene.elements);
  const hasComposition = COMPOSITION.some((e) => el.has(e as never));
  const skyOnly = !hasComposition && (el.has('stars') || el.has('moon') || el.has('sun') || el.has('clouds'));
  const texture = scene.texture ?? preset.defaultTexture;
  const night = scene.themes.some((t) => t.name === 'night' || t.name === 'space');
  if (!hasComposition && !skyOnly && texture === 'minimal') {
    // Minimal with nothing named: one disc over two flat ridges, lots of empty sky.
    el.add('hills').add(night ? 'moon' : 'sun');
  } else if (!hasComposition && !skyOnly) {
    // Words the engine has no meaning for: choose a composition from them (stable per prompt).
    const pick = scene.unknownHash % 5;
    if (pick === 0) el.add('hills').add('sun');
    else if (pick === 1) el.add('mountains');
    else if (pick === 2) el.add('abstract');
    else if (pick === 3) el.add('water').add('hills');
    else el.add('mountains').add('fog');
  }

  const minimal = texture === 'minimal';
  const abstract = el.has('abstract') && !el.has('mountains') && !el.has('city');
  const figureOnly =
    el.has('figure') && !el.has('mountains') && !el.has('hills') && !el.has('city') && !el.has('water');

  let ground: Ground | null = null;
  if (el.has('mountains')) ground = 'mountains';
  else if (el.has('hills') || el.has('forest') || skyOnly)
    ground = scene.themes.some((t) => t.name === 'desert') ? 'dunes' : 'hills';
  if (el.has('city') && !el.has('mountains')) ground = null;
  if (abstract || figureOnly) ground = null;

  const water = el.has('water') && !abstract;
  let horizon = 1;
  if (water) horizon = rng.range(0.55, 0.63);
  else if (ground === 'mountains') horizon = rng.range(0.6, 0.68);
  else if (ground) horizon = skyOnly ? rng.range(0.8, 0.86) : rng.range(0.66, 0.74);
  else if (el.has('city')) horizon = 0.94;

  const discKind = el.has('moon') ? 'moon' : el.has('sun') ? 'sun' : null;
  const sunset = scene.themes.some((t) => t.name === 'sunset' || t.name === 'dawn');
  let disc: Plan['disc'] = null;
  if (discKind && !abstract) {
    const low = discKind === 'sun' && sunset;
    const hz = Math.min(horizon, 0.9);
    const x = figureOnly ? 0.5 : rng.range(0.28, 0.72);
    // A low sun sits just above the horizon, or above the far ridges when there are mountains.
    const lowY = ground === 'mountains' ? hz - rng.range(0.3, 0.36) : hz - rng.range(0.03, 0.1);
    const y = figureOnly ? 0.4 : low ? lowY : rng.range(0.16, Math.max(0.2, hz - 0.36));
    const r = figureOnly
      ? 0.3
      : discKind === 'moon'
        ? rng.range(0.07, 0.1)
        : low
          ? rng.range(0.09, 0.13)
          : rng.range(0.06, 0.09);
    disc = { kind: discKind, x, y, r: minimal ? r * 1.5 : r };
  }

  const presence = 0.3 + 0.7 * strength;
  const mono = scene.themes.some((t) => t.name === 'monochrome') && scene.colours.length === 0 ? 1 : 0;
  const sepia = scene.themes.some((t) => t.name === 'sepia') ? 0.7 : 0;

  return {
    horizon,
    disc,
    stars: el.has('stars') ? (minimal ? 0.4 : 1) : 0,
    clouds: minimal ? 0 : el.has('clouds') ? 0.9 : scene.themes.some((t) => t.name === 'storm') ? 1 : 0.25,
    fog: el.has('fog') ? 0.75 : minimal ? 0 : 0.3,
    ground,
    layers: minimal ? 2 : ground === 'mountains' ? rng.int(4, 5) : 3,
    forest: el.has('forest') && !abstract,
    snow: el.has('snow'),
    city: el.has('city') && !abstract,
    water,
    waves: el.has('waves') && water,
    figure: el.has('figure')
      ? {
          longHair: scene.longHair,
          x: figureOnly ? 0.5 : rng.pick([0.3, 0.7]),
          scale: figureOnly ? 1 : 0.55,
          halo: figureOnly && !disc,
        }
      : null,
    abstract: abstract || (!ground && !el.has('city') && !water && !figureOnly),
    texture,
    minimal,
    grain: scene.grain ? 18 : texture === 'smooth' ? preset.grain : 0,
    vignette: minimal ? 0.1 : texture === 'watercolor' ? 0.04 : 0.28,
    bloom: preset.bloom,
    mono: Math.max(mono, sepia) * strength,
    presence,
  };
}
