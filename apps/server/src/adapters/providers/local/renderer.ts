import sharp from 'sharp';
import { toBytes, createCanvas, type Canvas } from './canvas.ts';
import { paintAbstract, paintPosterShapes } from './abstract.ts';
import { planScene } from './composition.ts';
import { facet, grain, oilPaint, tone, watercolor } from './finishes.ts';
import {
  paintCity,
  paintClouds,
  paintDisc,
  paintFigure,
  paintFog,
  paintGround,
  paintSky,
  paintStars,
  paintWater,
  paintWaves,
  type LayerContext,
} from './layers.ts';
import { ValueNoise } from './noise.ts';
import {
  adjustPalette,
  mapPalette,
  mixPalettes,
  paletteFromHash,
  removeHue,
  rgbToHsl,
  hslToRgb,
  tintPalette,
  THEMES,
  type Palette,
} from './palette.ts';
import type { LocalPreset } from './presets.ts';
import type { Scene } from './prompt-analysis.ts';
import { createRng, hashInts, hashString } from './random.ts';
import { matchToneCurve, paintSubject, styleGrain, styleSharpen, type AppliedStyle } from './style-layers.ts';
import { applyStyleProfile } from './style-profile.ts';

/**
 * Renders one image: palette from the prompt, a seeded plan, the layers painted on a float canvas
 * at a working resolution (at most WORK_SIDE px on the long side), finishes, then sharp upscales
 * the smooth result to the exact requested size (Lanczos), grain is added at full resolution and
 * the PNG is encoded with fixed options, so the bytes depend only on the inputs. A trained style adds
 * its subject after the finishes, its tone curve after the tone pass, and its texture at full size.
 */

/** Long side of the working canvas. Everything painted is soft-edged, so a smooth upscale is invisible. */
export const WORK_SIDE = 640;

export type RenderStage = 'compose' | 'paint' | 'finish' | 'encode';

export interface RenderInput {
  scene: Scene;
  preset: LocalPreset;
  seed: number;
  width: number;
  height: number;
  /** 0..1. */
  promptStrength: number;
  /** A trained style profile and its lora_scale (0..2). */
  style?: AppliedStyle;
}

/** Called between stages: reports progress, and throws to stop (the caller's abort check). */
export type StageHook = (stage: RenderStage) => Promise<void>;

export function buildPalette(
  input: Pick<RenderInput, 'scene' | 'preset' | 'promptStrength' | 'style' | 'seed'>,
): Palette {
  const { scene, preset } = input;
  let p: Palette;
  if (scene.themes.length > 0) {
    p = THEMES[scene.themes[0]!.name];
    for (const t of scene.themes.slice(1)) p = mixPalettes(p, THEMES[t.name], 0.4 * t.weight);
  } else {
    p = paletteFromHash(hashInts(scene.unknownHash, scene.colours.length));
  }
  // Words with no meaning still nudge the hue, so two prompts never share a palette exactly.
  if (scene.themes.length > 0 && scene.unknownWords.length > 0)
    p = rotateHue(p, (scene.unknownHash % 31) - 15);
  scene.colours.forEach((c, i) => {
    p = tintPalette(p, c.hue, i === 0 ? 0.55 : 0.3, c.sat);
  });
  for (const hue of scene.removedHues) p = removeHue(p, hue);
  p = adjustPalette(p, {
    contrast: scene.mood.contrast * preset.contrast,
    saturation: scene.mood.saturation * preset.saturation,
    brightness: scene.mood.brightness,
    warmth: scene.mood.warmth,
  });
  p = mixPalettes(preset.base, p, input.promptStrength);
  if (input.style) p = applyStyleProfile(p, input.style.profile, input.style.scale);
  return p;
}

function rotateHue(p: Palette, degrees: number): Palette {
  if (degrees === 0) return p;
  return mapPalette(p, (c) => {
    const [h, s, l] = rgbToHsl(c);
    return hslToRgb(h + degrees, s, l);
  });
}

export function workSize(width: number, height: number): { w: number; h: number } {
  const k = Math.min(1, WORK_SIDE / Math.max(width, height));
  return { w: Math.max(8, Math.round(width * k)), h: Math.max(8, Math.round(height * k)) };
}

export async function renderPng(input: RenderInput, stage: StageHook): Promise<Buffer> {
  const { scene, preset, width, height } = input;
  const seedLo = input.seed >>> 0;
  const seedHi = Math.floor(input.seed / 4294967296) | 0;
  const rng = createRng(hashInts(seedLo, seedHi, scene.promptHash, hashString(preset.providerModel)));
  const noise = new ValueNoise(rng.fork('noise').next() * 0xffffffff);
  const palette = buildPalette(input);
  const plan = planScene(scene, preset, input.promptStrength, rng.fork('plan'));
  const { w, h } = workSize(width, height);
  let canvas = createCanvas(w, h);
  await stage('compose');

  const ctx = (label: string): LayerContext => ({ canvas, plan, palette, noise, rng: rng.fork(label) });
  const geometric = plan.texture === 'geometric';
  let paintWindows: (target: Canvas) => void = () => {};
  if (plan.abstract) paintAbstract(ctx('abstract'));
  else {
    paintSky(ctx('sky'));
    // Geometric: stars (and a disc with nothing in front of it) go on after the facets, crisp over
    // the low-poly sky.
    const discLater = geometric && !plan.ground && !plan.city;
    if (!geometric) paintStars(ctx('stars'));
    if (!discLater) paintDisc(ctx('disc'));
    paintClouds(ctx('clouds'));
    if (geometric) {
      // Geometric: facet the backdrop (sky, land); the skyline and water go on crisp afterwards.
      paintGround(ctx('ground'));
    } else if (plan.water) {
      paintGround(ctx('ground'));
      paintWindows = paintCity(ctx('city'));
      paintWater(ctx('water'));
      paintWaves(ctx('waves'));
    } else {
      paintWindows = paintCity(ctx('city'));
      paintGround(ctx('ground'));
    }
    if (!geometric) paintFog(ctx('fog'));
  }
  if (!geometric) {
    paintWindows(canvas);
    paintFigure(ctx('figure'));
  }
  await stage('paint');

  if (geometric) {
    canvas = facet(canvas, preset.facets, rng.fork('facets'));
    paintPosterShapes(canvas, ctx('poster'));
    if (!plan.abstract) {
      paintStars(ctx('stars'));
      if (!plan.ground && !plan.city) paintDisc(ctx('disc'));
      paintCity(ctx('city'))(canvas);
      paintWater(ctx('water'));
      paintWaves(ctx('waves'));
      paintFog(ctx('fog'));
    }
    paintFigure(ctx('figure'));
  } else if (plan.texture === 'watercolor') canvas = watercolor(canvas, noise);
  else if (plan.texture === 'oil') canvas = oilPaint(canvas, noise, rng.fork('oil'));
  const style = input.style;
  if (style?.profile.subject)
    await paintSubject(canvas, style.profile.subject, style.scale, rng.fork('subject'));
  tone(
    canvas,
    plan,
    scene.themes.some((t) => t.name === 'sepia'),
  );
  if (style?.profile.toneCurve) matchToneCurve(canvas, style.profile.toneCurve, style.scale);
  await stage('finish');

  const raw = { width: w, height: h, channels: 3 as const };
  let image = sharp(toBytes(canvas), { raw });
  if (w !== width || h !== height) {
    // Geometric facets keep their crisp edges with a cubic kernel; soft layers use Lanczos.
    image = image.resize(width, height, {
      fit: 'fill',
      kernel: plan.texture === 'geometric' ? 'cubic' : 'lanczos3',
    });
  }
  const sharpen = style && styleSharpen(style.profile.texture, style.scale);
  if (sharpen) image = image.sharpen(sharpen);
  const grainAmount = plan.grain + (style ? styleGrain(style.profile.texture, style.scale) : 0);
  if (grainAmount > 0) {
    const pixels = await image.raw().toBuffer();
    grain(pixels, grainAmount, hashInts(seedLo, seedHi, scene.promptHash, 7));
    image = sharp(pixels, { raw: { width, height, channels: 3 } });
  }
  const png = await image.png(PNG_OPTIONS).toBuffer();
  await stage('encode');
  return png;
}

/** Fixed encoder options: same pixels → same bytes. */
const PNG_OPTIONS = { compressionLevel: 6, adaptiveFiltering: false, palette: false } as const;
