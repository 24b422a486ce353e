import sharp from 'sharp';
import type { EditRequest, ProviderImage } from '../../image-tools.ts';
import { createRng } from '../random.ts';
import {
  clamp,
  clamp01,
  decodeInput,
  forEachBand,
  rawInput,
  smoothstep,
  type RawImage,
  type ToolRun,
} from './common.ts';

/**
 * The local editor: colour, tone and texture edits steered by the prompt's words. The prompt is read
 * into intents ("warm", "night", "vintage"…), each a set of adjustments; they add up, a word in the
 * negative prompt (or after "no"/"without") drops its intent, and words like "slightly" or "very"
 * scale the next one. `strength` blends the edited pixels with the original, so 0.3 moves a third of
 * the way. A prompt with no word we know still gets a gentle enhance, so something visibly happens.
 */

/** The adjustments an edit applies, all neutral at their defaults. */
export interface EditAdjustments {
  /** Brightness in stops, applied as a gamma curve (no clipping): +1 is much brighter. */
  exposure: number;
  /** -1 cool (blue) … +1 warm (amber) white balance. */
  warmth: number;
  /** Saturation multiplier (0 = black and white). */
  saturation: number;
  /** Contrast multiplier around mid-grey. */
  contrast: number;
  /** 0..0.3: lifted blacks (a faded, matte print). */
  fade: number;
  /** 0..1: sepia toning. */
  sepia: number;
  /** Colour grades, soft-light blended: [r, g, b] in 0..1 and an amount. */
  tints: Array<{ rgb: [number, number, number]; amount: number }>;
  /** 0..1: darker corners. */
  vignette: number;
  /** 0..1: unsharp-mask sharpening. */
  sharpen: number;
  /** 0..1: a soft bloom (blurred copy screen-blended). */
  glow: number;
  /** 0..1: soft focus (blurred copy mixed in). */
  blur: number;
  /** 0..1: monochrome film grain. */
  grain: number;
}

export const NEUTRAL: EditAdjustments = {
  exposure: 0,
  warmth: 0,
  saturation: 1,
  contrast: 1,
  fade: 0,
  sepia: 0,
  tints: [],
  vignette: 0,
  sharpen: 0,
  glow: 0,
  blur: 0,
  grain: 0,
};

type Delta = Partial<Omit<EditAdjustments, 'tints'>> & { tint?: [number, number, number] };

interface Intent {
  id: string;
  /** Words and phrases (lower case, letters and spaces); longer phrases win over the words inside them. */
  words: string[];
  /** Additive for exposure, warmth, fade, sepia, vignette, sharpen, glow, blur, grain; multiplicative for saturation and contrast. */
  delta: Delta;
}

const COLOUR_TINTS: Record<string, [number, number, number]> = {
  red: [0.85, 0.15, 0.12],
  crimson: [0.75, 0.08, 0.2],
  orange: [0.95, 0.5, 0.12],
  yellow: [0.95, 0.85, 0.2],
  gold: [0.9, 0.7, 0.25],
  green: [0.2, 0.7, 0.25],
  emerald: [0.1, 0.6, 0.4],
  teal: [0.1, 0.6, 0.6],
  cyan: [0.15, 0.75, 0.85],
  turquoise: [0.2, 0.8, 0.75],
  blue: [0.15, 0.3, 0.85],
  navy: [0.1, 0.15, 0.5],
  purple: [0.55, 0.2, 0.75],
  violet: [0.55, 0.3, 0.85],
  magenta: [0.85, 0.15, 0.7],
  pink: [0.95, 0.5, 0.7],
  rose: [0.9, 0.45, 0.55],
};

/** Checked in this order; a phrase consumes its words, so "black and white" is not read as colours. */
const INTENTS: Intent[] = [
  {
    id: 'mono',
    words: ['black and white', 'b w', 'monochrome', 'grayscale', 'greyscale', 'colorless', 'colourless'],
    delta: { saturation: 0, contrast: 1.1 },
  },
  { id: 'noir', words: ['noir'], delta: { saturation: 0, contrast: 1.35, vignette: 0.4, exposure: -0.15 } },
  {
    id: 'golden',
    words: ['golden hour', 'golden', 'sunset', 'sunrise', 'dusk', 'dawn'],
    delta: { warmth: 0.5, tint: [1, 0.62, 0.25], exposure: 0.05, contrast: 1.05, saturation: 1.08 },
  },
  {
    id: 'warm',
    words: [
      'warm',
      'warmer',
      'warmth',
      'sunny',
      'summer',
      'autumn',
      'autumnal',
      'fall',
      'cozy',
      'cosy',
      'amber',
    ],
    delta: { warmth: 0.55, saturation: 1.05 },
  },
  {
    id: 'night',
    words: ['night', 'nighttime', 'midnight', 'moonlight', 'moonlit'],
    delta: { warmth: -0.45, exposure: -0.6, saturation: 0.85, contrast: 1.1, tint: [0.12, 0.2, 0.55] },
  },
  {
    id: 'moody',
    words: ['moody', 'gloomy', 'brooding', 'melancholic', 'stormy'],
    delta: { exposure: -0.3, saturation: 0.8, contrast: 1.15, vignette: 0.35, warmth: -0.2 },
  },
  {
    id: 'cool',
    words: ['cool', 'cooler', 'cold', 'colder', 'icy', 'winter', 'wintry', 'frosty', 'arctic'],
    delta: { warmth: -0.55 },
  },
  { id: 'sepia', words: ['sepia'], delta: { sepia: 0.9, fade: 0.05, vignette: 0.2 } },
  {
    id: 'vintage',
    words: ['vintage', 'retro', 'old', 'antique', 'nostalgic', 'classic', 'seventies', 'polaroid'],
    delta: { sepia: 0.5, fade: 0.08, grain: 0.3, vignette: 0.3, contrast: 0.92, saturation: 0.85 },
  },
  {
    id: 'vivid',
    words: ['vivid', 'vibrant', 'saturated', 'pop', 'colorful', 'colourful', 'punchy colors', 'rich'],
    delta: { saturation: 1.45, contrast: 1.08 },
  },
  { id: 'pastel', words: ['pastel'], delta: { saturation: 0.6, fade: 0.08, exposure: 0.2, contrast: 0.9 } },
  {
    id: 'muted',
    words: ['muted', 'soft', 'softer', 'faded', 'desaturated', 'washed out', 'subdued', 'matte'],
    delta: { saturation: 0.62, fade: 0.07, contrast: 0.9 },
  },
  {
    id: 'bright',
    words: ['bright', 'brighter', 'brighten', 'light', 'lighter', 'airy', 'high key', 'sunlit', 'radiant'],
    delta: { exposure: 0.45 },
  },
  {
    id: 'dark',
    words: ['dark', 'darker', 'darken', 'dim', 'shadowy', 'low key', 'underexposed'],
    delta: { exposure: -0.45 },
  },
  {
    id: 'dramatic',
    words: ['dramatic', 'high contrast', 'contrast', 'contrasty', 'punchy', 'bold', 'cinematic', 'epic'],
    delta: { contrast: 1.35, vignette: 0.25 },
  },
  {
    id: 'sharp',
    words: [
      'sharp',
      'sharper',
      'sharpen',
      'crisp',
      'crisper',
      'detailed',
      'clarity',
      'clear',
      'hdr',
      'defined',
    ],
    delta: { sharpen: 1, contrast: 1.04 },
  },
  {
    id: 'dreamy',
    words: ['dreamy', 'dream', 'glow', 'glowing', 'ethereal', 'hazy', 'haze', 'misty', 'bloom', 'magical'],
    delta: { glow: 0.7, fade: 0.04, exposure: 0.1 },
  },
  {
    id: 'blur',
    words: ['blur', 'blurry', 'blurred', 'soft focus', 'out of focus', 'smooth'],
    delta: { blur: 0.7 },
  },
  {
    id: 'grain',
    words: ['grain', 'grainy', 'film', 'analog', 'analogue', 'noise', 'noisy', 'gritty'],
    delta: { grain: 0.75, fade: 0.02 },
  },
  { id: 'vignette', words: ['vignette', 'vignetted'], delta: { vignette: 0.6 } },
  ...Object.entries(COLOUR_TINTS).map(([name, rgb]) => ({
    id: name,
    words: [name, `${name}s`, `${name}ish`],
    delta: { tint: rgb },
  })),
];

/** Used when the prompt names nothing we know: a little contrast, colour and clarity. */
const ENHANCE: Delta = { contrast: 1.12, saturation: 1.1, sharpen: 0.45 };

const NEGATORS = new Set(['no', 'not', 'without', 'never', 'remove', 'less', 'avoid', 'nothing']);
const STRONGER = new Set([
  'very',
  'more',
  'much',
  'extra',
  'extremely',
  'really',
  'super',
  'strong',
  'strongly',
  'heavy',
  'heavily',
  'lots',
]);
const WEAKER = new Set([
  'slightly',
  'slight',
  'bit',
  'little',
  'subtle',
  'subtly',
  'gentle',
  'gently',
  'touch',
  'hint',
  'mild',
  'mildly',
  'somewhat',
]);

interface Match {
  id: string;
  /** 0.5 (slightly), 1, or 1.5 (very). */
  scale: number;
  negated: boolean;
}

const normalise = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z]+/g, ' ')
    .trim()} `;

/** Every intent named in `text`, in order, with the modifiers just before it. */
function findIntents(text: string): Match[] {
  let rest = normalise(text);
  const found: Array<Match & { at: number }> = [];
  for (const intent of INTENTS) {
    // Longest phrases first, so "golden hour" consumes "golden" and "soft focus" is not "soft".
    for (const phrase of [...intent.words].sort((a, b) => b.length - a.length)) {
      const needle = ` ${phrase} `;
      let at = rest.indexOf(needle);
      while (at >= 0) {
        const before = rest.slice(0, at).trim().split(' ').slice(-3);
        const negated = before.some((w) => NEGATORS.has(w));
        const scale = before.some((w) => STRONGER.has(w)) ? 1.5 : before.some((w) => WEAKER.has(w)) ? 0.5 : 1;
        found.push({ id: intent.id, scale, negated, at });
        // Blank the phrase out (keeping positions) so shorter words inside it don't match again.
        rest = rest.slice(0, at + 1) + '_'.repeat(phrase.length) + rest.slice(at + 1 + phrase.length);
        at = rest.indexOf(needle, at + 1);
      }
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

export interface ParsedEdit {
  /** Intent ids applied, in prompt order (`enhance` when none). */
  intents: string[];
  adjustments: EditAdjustments;
}

/** Reads a prompt and its negative into adjustments. Pure, so it is tested on its own. */
export function parseEditPrompt(prompt: string, negativePrompt = ''): ParsedEdit {
  const removed = new Set(findIntents(negativePrompt).map((m) => m.id));
  const matches = findIntents(prompt);
  for (const m of matches) if (m.negated) removed.add(m.id);
  const applied = new Map<string, number>();
  for (const m of matches) {
    if (removed.has(m.id)) continue;
    applied.set(m.id, Math.max(applied.get(m.id) ?? 0, m.scale));
  }
  const adj: EditAdjustments = { ...NEUTRAL, tints: [] };
  if (applied.size === 0) {
    addDelta(adj, ENHANCE, 1);
    return { intents: ['enhance'], adjustments: adj };
  }
  for (const [id, scale] of applied) addDelta(adj, INTENTS.find((i) => i.id === id)!.delta, scale);
  adj.exposure = clamp(adj.exposure, -1.5, 1.5);
  adj.warmth = clamp(adj.warmth, -1, 1);
  adj.saturation = clamp(adj.saturation, 0, 2.2);
  adj.contrast = clamp(adj.contrast, 0.6, 1.9);
  adj.fade = clamp(adj.fade, 0, 0.3);
  for (const k of ['sepia', 'vignette', 'sharpen', 'glow', 'blur', 'grain'] as const)
    adj[k] = clamp01(adj[k]);
  return { intents: [...applied.keys()], adjustments: adj };
}

function addDelta(adj: EditAdjustments, d: Delta, scale: number): void {
  const add = (
    k: 'exposure' | 'warmth' | 'fade' | 'sepia' | 'vignette' | 'sharpen' | 'glow' | 'blur' | 'grain',
  ) => {
    if (d[k] !== undefined) adj[k] += d[k] * scale;
  };
  (['exposure', 'warmth', 'fade', 'sepia', 'vignette', 'sharpen', 'glow', 'blur', 'grain'] as const).forEach(
    add,
  );
  // Multipliers scale in log space: "very vivid" is 1.45^1.5, "slightly vivid" 1.45^0.5.
  if (d.saturation !== undefined) adj.saturation *= d.saturation === 0 ? 0 : d.saturation ** scale;
  if (d.contrast !== undefined) adj.contrast *= d.contrast ** scale;
  if (d.tint) adj.tints.push({ rgb: d.tint, amount: clamp01(0.32 * scale) });
}

/** Edits the image; same size as the input, PNG. */
export async function editImage(request: EditRequest, run: ToolRun): Promise<ProviderImage> {
  await run.progress(5, 'Reading your prompt');
  const { adjustments: adj, intents } = parseEditPrompt(request.prompt, request.negativePrompt);
  const strength = clamp(Number.isFinite(request.strength) ? request.strength : 0.6, 0.05, 1);
  const original = await decodeInput(request.image, 'image', { keepAlpha: true });
  const { width, height, channels } = original;

  await run.progress(20, `Adjusting colour and tone (${intents.join(', ')})`);
  const edited = Buffer.from(original.data);
  await toneAndColour({ data: edited, width, height, channels }, adj, run);

  await run.progress(60, 'Adding texture');
  const textured = await texture({ data: edited, width, height, channels }, adj, run);

  await run.progress(85, 'Blending with the original');
  // The result moves `strength` of the way from the original to the full edit; alpha is kept as is.
  const out = Buffer.alloc(original.data.length);
  await forEachBand(run, width, height, (y0, y1) => {
    for (let i = y0 * width * channels, end = y1 * width * channels; i < end; i++) {
      const o = original.data[i]!;
      out[i] = channels === 4 && i % 4 === 3 ? o : Math.round(o + (textured[i]! - o) * strength);
    }
  });
  const bytes = await sharp(out, rawInput({ data: out, width, height, channels }))
    .png()
    .toBuffer();
  return { bytes, contentType: 'image/png', width, height };
}

/** Per-pixel colour and tone, in place (8-bit in and out, floats in between). */
export async function toneAndColour(image: RawImage, adj: EditAdjustments, run: ToolRun): Promise<void> {
  const { data, width, height, channels } = image;
  // Per-channel curves as lookup tables: exposure as a gamma (brightens without clipping) and
  // white balance as channel gains.
  const gamma = 2 ** (-adj.exposure * 0.8);
  const gains = [1 + 0.16 * adj.warmth, 1 + 0.03 * adj.warmth, 1 - 0.2 * adj.warmth];
  const lut = gains.map((gain) => {
    const t = new Float32Array(256);
    for (let i = 0; i < 256; i++) t[i] = clamp01((i / 255) ** gamma * gain);
    return t;
  });
  const [lr, lg, lb] = lut as [Float32Array, Float32Array, Float32Array];
  const { saturation, sepia, contrast, fade, vignette, tints } = adj;
  const cx = width / 2;
  const cy = height / 2;
  const invR2 = 1 / (cx * cx + cy * cy);
  await forEachBand(run, width, height, (y0, y1) => {
    for (let y = y0; y < y1; y++) {
      const dy2 = (y + 0.5 - cy) ** 2;
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * channels;
        let r = lr[data[i]!]!;
        let g = lg[data[i + 1]!]!;
        let b = lb[data[i + 2]!]!;
        const l = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        if (saturation !== 1) {
          r = l + (r - l) * saturation;
          g = l + (g - l) * saturation;
          b = l + (b - l) * saturation;
        }
        if (sepia > 0) {
          const sr = 0.393 * r + 0.769 * g + 0.189 * b;
          const sg = 0.349 * r + 0.686 * g + 0.168 * b;
          const sb = 0.272 * r + 0.534 * g + 0.131 * b;
          r += (sr - r) * sepia;
          g += (sg - g) * sepia;
          b += (sb - b) * sepia;
        }
        for (const t of tints) {
          // Soft light (pegtop): tints mid-tones most and keeps black and white ends.
          r = clamp01(r);
          g = clamp01(g);
          b = clamp01(b);
          r += ((1 - 2 * t.rgb[0]) * r * r + 2 * t.rgb[0] * r - r) * t.amount;
          g += ((1 - 2 * t.rgb[1]) * g * g + 2 * t.rgb[1] * g - g) * t.amount;
          b += ((1 - 2 * t.rgb[2]) * b * b + 2 * t.rgb[2] * b - b) * t.amount;
        }
        if (contrast !== 1) {
          r = 0.5 + (r - 0.5) * contrast;
          g = 0.5 + (g - 0.5) * contrast;
          b = 0.5 + (b - 0.5) * contrast;
        }
        if (fade > 0) {
          r = fade + r * (1 - fade);
          g = fade + g * (1 - fade);
          b = fade + b * (1 - fade);
        }
        if (vignette > 0) {
          const k = 1 - 0.6 * vignette * smoothstep(0.25, 1, ((x + 0.5 - cx) ** 2 + dy2) * invR2);
          r *= k;
          g *= k;
          b *= k;
        }
        data[i] = Math.round(clamp01(r) * 255);
        data[i + 1] = Math.round(clamp01(g) * 255);
        data[i + 2] = Math.round(clamp01(b) * 255);
      }
    }
  });
}

/** Sharpening, glow, soft focus and grain; returns a new buffer. */
async function texture(image: RawImage, adj: EditAdjustments, run: ToolRun): Promise<Buffer> {
  const { data, width, height, channels } = image;
  const raw = rawInput(image);
  // Sizes scale with the image so a 512 px preview and a 4000 px photo look alike.
  const scale = Math.max(width, height) / 1024;
  let out = data;
  if (adj.sharpen > 0) {
    out = await sharp(out, raw)
      .sharpen({ sigma: Math.max(0.6, 1.1 * scale), m1: 0.5, m2: 1.5 + 2.5 * adj.sharpen })
      .raw()
      .toBuffer();
  }
  if (adj.glow > 0 || adj.blur > 0) {
    const sigma = Math.max(1.5, (adj.glow > 0 ? 12 : 4) * scale);
    const blurred = await sharp(out, raw).blur(sigma).raw().toBuffer();
    const glow = adj.glow * 0.6;
    const soft = adj.blur * 0.85;
    const mixed = Buffer.from(out);
    await forEachBand(run, width, height, (y0, y1) => {
      for (let i = y0 * width * channels, end = y1 * width * channels; i < end; i++) {
        if (channels === 4 && i % 4 === 3) continue;
        const a = out[i]! / 255;
        const bl = blurred[i]! / 255;
        let v = a + (bl - a) * soft;
        v += (1 - (1 - v) * (1 - bl) - v) * glow;
        mixed[i] = Math.round(clamp01(v) * 255);
      }
    });
    out = mixed;
  }
  if (adj.grain > 0) {
    // Monochrome grain (the same offset on every channel keeps a black-and-white edit grey), from
    // the request's seed so a rerun is identical.
    const rng = createRng(run.seed ^ 0x5eed);
    const amp = 26 * adj.grain;
    const grained = out === data ? Buffer.from(out) : out;
    await forEachBand(run, width, height, (y0, y1) => {
      for (let p = y0 * width, end = y1 * width; p < end; p++) {
        const n = (rng.next() + rng.next() + rng.next() - 1.5) * amp;
        const i = p * channels;
        grained[i] = clampByte(grained[i]! + n);
        grained[i + 1] = clampByte(grained[i + 1]! + n);
        grained[i + 2] = clampByte(grained[i + 2]! + n);
      }
    });
    out = grained;
  }
  return out;
}

const clampByte = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));
