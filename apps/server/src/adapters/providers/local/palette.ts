/**
 * Colour for the local engine: named themes the prompt can call up ("sunset", "ocean", "neon"…),
 * colour words, mood adjustments, and the blend toward a model's neutral base palette that
 * `promptStrength` controls. Colours are sRGB triples in 0..1.
 */

export type Rgb = readonly [number, number, number];

/** Every slot the renderer paints with. */
export interface Palette {
  skyTop: Rgb;
  skyMid: Rgb;
  skyHorizon: Rgb;
  /** Light around the sun / main light source, also cloud highlights. */
  glow: Rgb;
  /** The sun or moon disc. */
  disc: Rgb;
  /** Land or building layers, far → near. */
  land: readonly [Rgb, Rgb, Rgb, Rgb];
  water: Rgb;
  /** Accent colours: window lights, abstract ribbons, rim light. */
  accents: readonly [Rgb, Rgb, Rgb];
  /** The darkest silhouette colour (figures, nearest foreground). */
  ink: Rgb;
  fog: Rgb;
}

export const THEME_NAMES = [
  'sunset',
  'dawn',
  'ocean',
  'night',
  'forest',
  'neon',
  'pastel',
  'monochrome',
  'autumn',
  'desert',
  'winter',
  'fire',
  'spring',
  'golden',
  'storm',
  'space',
  'tropical',
  'sepia',
] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

const hex = (value: string): Rgb => {
  const n = parseInt(value.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
};

function theme(p: {
  sky: [string, string, string];
  glow: string;
  disc: string;
  land: [string, string, string, string];
  water: string;
  accents: [string, string, string];
  ink: string;
  fog: string;
}): Palette {
  return {
    skyTop: hex(p.sky[0]),
    skyMid: hex(p.sky[1]),
    skyHorizon: hex(p.sky[2]),
    glow: hex(p.glow),
    disc: hex(p.disc),
    land: [hex(p.land[0]), hex(p.land[1]), hex(p.land[2]), hex(p.land[3])],
    water: hex(p.water),
    accents: [hex(p.accents[0]), hex(p.accents[1]), hex(p.accents[2])],
    ink: hex(p.ink),
    fog: hex(p.fog),
  };
}

export const THEMES: Record<ThemeName, Palette> = {
  sunset: theme({
    sky: ['#2b1d4e', '#b8456b', '#ffb067'],
    glow: '#ffcf7a',
    disc: '#fff1c4',
    land: ['#a0507a', '#6e3466', '#43214f', '#22122e'],
    water: '#4a2a5e',
    accents: ['#ff8a5c', '#ffd27a', '#c45ab3'],
    ink: '#160b1f',
    fog: '#f4a98a',
  }),
  dawn: theme({
    sky: ['#6f8fc9', '#e7b3c4', '#ffe0b8'],
    glow: '#fff0c9',
    disc: '#fffaf0',
    land: ['#b6a4c8', '#8b7aa8', '#5f5584', '#383657'],
    water: '#7d8fbf',
    accents: ['#ffb4a2', '#ffe5b4', '#9fb7e8'],
    ink: '#242238',
    fog: '#f3dfe3',
  }),
  ocean: theme({
    sky: ['#0b3d6e', '#2f80b8', '#a9d8ea'],
    glow: '#e6f6ff',
    disc: '#fdfdf5',
    land: ['#5c93b5', '#2f6d95', '#1b4c73', '#0c2c4a'],
    water: '#0e4f7a',
    accents: ['#5fe0d5', '#ffffff', '#2aa3c9'],
    ink: '#06192b',
    fog: '#cde8f2',
  }),
  night: theme({
    sky: ['#03061a', '#0d1a45', '#2a3f7a'],
    glow: '#9fb4ff',
    disc: '#f4f1dc',
    land: ['#27345f', '#1a2447', '#111833', '#080c1d'],
    water: '#0a1538',
    accents: ['#ffd37a', '#8fb3ff', '#c9d7ff'],
    ink: '#03050f',
    fog: '#3a4a80',
  }),
  forest: theme({
    sky: ['#6f9c8c', '#b9d4b6', '#e9efd2'],
    glow: '#fff6d1',
    disc: '#fffbe6',
    land: ['#7fa38a', '#4f7d5c', '#2f5a3c', '#16321f'],
    water: '#2f5f57',
    accents: ['#c9e36b', '#f2d16b', '#7fc4a0'],
    ink: '#0b1a10',
    fog: '#dfe9d8',
  }),
  neon: theme({
    sky: ['#07010f', '#2a0a4a', '#7a1a8c'],
    glow: '#ff3df2',
    disc: '#ff6bd9',
    land: ['#3b1462', '#260c45', '#170730', '#0a0318'],
    water: '#14062b',
    accents: ['#00f0ff', '#ff2bd6', '#fffb7a'],
    ink: '#05010b',
    fog: '#5a1a8a',
  }),
  pastel: theme({
    sky: ['#a8d8f0', '#f6c6dc', '#fde9c9'],
    glow: '#fff7e0',
    disc: '#fffdf5',
    land: ['#c9e4de', '#b5cde8', '#e6c8ea', '#b7a6d9'],
    water: '#b9def0',
    accents: ['#ffb7c5', '#b8f2e6', '#ffe29a'],
    ink: '#6d6a8f',
    fog: '#fbf1f4',
  }),
  monochrome: theme({
    sky: ['#1e1e1e', '#7a7a7a', '#d6d6d6'],
    glow: '#f2f2f2',
    disc: '#fafafa',
    land: ['#9a9a9a', '#6a6a6a', '#404040', '#1c1c1c'],
    water: '#3a3a3a',
    accents: ['#ffffff', '#bdbdbd', '#7a7a7a'],
    ink: '#0a0a0a',
    fog: '#dcdcdc',
  }),
  autumn: theme({
    sky: ['#6b8cae', '#e3b98a', '#f7dca8'],
    glow: '#ffe2a0',
    disc: '#fff3d1',
    land: ['#c9794a', '#a8482c', '#7a2f22', '#3f1a14'],
    water: '#5a6e7e',
    accents: ['#ff9f1c', '#e4572e', '#ffd166'],
    ink: '#1f0d09',
    fog: '#f2d7b8',
  }),
  desert: theme({
    sky: ['#4f8fc0', '#9fcbe0', '#f5e2c0'],
    glow: '#fff0c0',
    disc: '#fffbe8',
    land: ['#e8c08a', '#d79b5e', '#b8733d', '#7a4524'],
    water: '#4f9bb0',
    accents: ['#f2a65a', '#c0392b', '#ffe0a3'],
    ink: '#3a1f10',
    fog: '#f6e6cb',
  }),
  winter: theme({
    sky: ['#7ea3c9', '#c5dbec', '#eef4f8'],
    glow: '#ffffff',
    disc: '#fffdf7',
    land: ['#dfe9f2', '#b7c9dc', '#8aa2bd', '#50667f'],
    water: '#7899b5',
    accents: ['#ffffff', '#a9d6f5', '#e3ecf5'],
    ink: '#253447',
    fog: '#f2f6fa',
  }),
  fire: theme({
    sky: ['#1a0500', '#7a1500', '#ff5a00'],
    glow: '#ffb300',
    disc: '#fff2a8',
    land: ['#b32a00', '#7a1400', '#4a0900', '#1f0300'],
    water: '#3a0a00',
    accents: ['#ffdd00', '#ff7b00', '#ff2e00'],
    ink: '#0d0200',
    fog: '#ff8a3d',
  }),
  spring: theme({
    sky: ['#8fd0f2', '#cdebf7', '#f3f9e8'],
    glow: '#fffbe0',
    disc: '#fffef5',
    land: ['#b9e0a5', '#8cc97a', '#5fa85a', '#2f7a3f'],
    water: '#6fc0d8',
    accents: ['#ff9fc7', '#ffe36e', '#ffffff'],
    ink: '#1b3d22',
    fog: '#f4faf0',
  }),
  golden: theme({
    sky: ['#7a5a2a', '#d9a441', '#ffe7a6'],
    glow: '#fff1c2',
    disc: '#fffae6',
    land: ['#c7924a', '#9c6a2e', '#6b451c', '#35210c'],
    water: '#8a6a3a',
    accents: ['#ffd35c', '#fff2c4', '#e0a030'],
    ink: '#1e1206',
    fog: '#f7e1b0',
  }),
  storm: theme({
    sky: ['#1c232b', '#46525e', '#8a96a1'],
    glow: '#dfe6ec',
    disc: '#f0f3f5',
    land: ['#5d6872', '#414b55', '#2a323a', '#14191e'],
    water: '#2a3640',
    accents: ['#c9d6e3', '#f4f7fa', '#7a8a99'],
    ink: '#0a0d10',
    fog: '#8f9aa4',
  }),
  space: theme({
    sky: ['#020108', '#120a2e', '#2d1356'],
    glow: '#b07cff',
    disc: '#ffe9c7',
    land: ['#2a1a4a', '#1c1036', '#120a24', '#080412'],
    water: '#0d0726',
    accents: ['#7df9ff', '#ff6ec7', '#ffd27a'],
    ink: '#020108',
    fog: '#3b1d6e',
  }),
  tropical: theme({
    sky: ['#1ea7d6', '#7fdcec', '#fff1c1'],
    glow: '#fff6cc',
    disc: '#fffbe5',
    land: ['#3fbf9f', '#1f9a76', '#137a55', '#0a4a33'],
    water: '#16b3c4',
    accents: ['#ff6f59', '#ffd23f', '#ee4266'],
    ink: '#06281c',
    fog: '#e8fbf6',
  }),
  sepia: theme({
    sky: ['#3b2a1a', '#9c7a52', '#e6d1ae'],
    glow: '#f5e6c8',
    disc: '#fbf3e0',
    land: ['#a88a63', '#7d6343', '#54412a', '#2a1f13'],
    water: '#5c4a33',
    accents: ['#f0dcb4', '#c4a070', '#8a6a42'],
    ink: '#150f08',
    fog: '#e0cba6',
  }),
};

// ---------------------------------------------------------------------------------------------
// Colour maths

export const mixRgb = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

export function rgbToHsl([r, g, b]: Rgb): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [h * 60, s, l];
}

export function hslToRgb(h: number, s: number, l: number): Rgb {
  h = ((h % 360) + 360) % 360;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  return [r + m, g + m, b + m];
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/** Shortest signed hue distance a→b in degrees. */
export const hueDelta = (a: number, b: number) => ((((b - a) % 360) + 540) % 360) - 180;

/** Applies `fn` to every colour slot of a palette. */
export function mapPalette(p: Palette, fn: (c: Rgb, slot: keyof Palette) => Rgb): Palette {
  return {
    skyTop: fn(p.skyTop, 'skyTop'),
    skyMid: fn(p.skyMid, 'skyMid'),
    skyHorizon: fn(p.skyHorizon, 'skyHorizon'),
    glow: fn(p.glow, 'glow'),
    disc: fn(p.disc, 'disc'),
    land: [fn(p.land[0], 'land'), fn(p.land[1], 'land'), fn(p.land[2], 'land'), fn(p.land[3], 'land')],
    water: fn(p.water, 'water'),
    accents: [fn(p.accents[0], 'accents'), fn(p.accents[1], 'accents'), fn(p.accents[2], 'accents')],
    ink: fn(p.ink, 'ink'),
    fog: fn(p.fog, 'fog'),
  };
}

export function mixPalettes(a: Palette, b: Palette, t: number): Palette {
  if (t <= 0) return a;
  if (t >= 1) return b;
  const flatB = flatten(b);
  let i = 0;
  return mapPalette(a, (c) => mixRgb(c, flatB[i++]!, t));
}

function flatten(p: Palette): Rgb[] {
  const out: Rgb[] = [];
  mapPalette(p, (c) => (out.push(c), c));
  return out;
}

/** Every colour of a palette, for analysis and tests. */
export const paletteColours = flatten;

/**
 * Pulls each colour toward `hue` (keeping its lightness), by `amount` 0..1. The blend runs in RGB, not
 * around the hue wheel, so blue tinted toward gold passes through grey-gold rather than green.
 */
export function tintPalette(p: Palette, hue: number, amount: number, saturation = 0.7): Palette {
  return mapPalette(p, (c, slot) => {
    const [, s, l] = rgbToHsl(c);
    const target = hslToRgb(hue, Math.max(s, saturation), l);
    return mixRgb(c, target, slot === 'accents' ? Math.min(1, amount * 1.4) : amount);
  });
}

/** Pushes colours near `hue` away from it (a negative colour word), desaturating what stays close. */
export function removeHue(p: Palette, hue: number): Palette {
  return mapPalette(p, (c) => {
    const [h, s, l] = rgbToHsl(c);
    const d = hueDelta(hue, h);
    if (s < 0.08 || Math.abs(d) > 75) return c;
    const away = hue + (d >= 0 ? 1 : -1) * 95;
    return hslToRgb(away, s * 0.6, l);
  });
}

/** Mood adjustments: contrast around mid-grey, saturation, brightness and a warm/cool hue lean. */
export function adjustPalette(
  p: Palette,
  mood: { contrast: number; saturation: number; brightness: number; warmth: number },
): Palette {
  return mapPalette(p, (c) => {
    let [h, s, l] = rgbToHsl(c);
    if (mood.warmth !== 0 && s > 0.05) {
      const target = mood.warmth > 0 ? 30 : 215;
      h += hueDelta(h, target) * Math.min(0.5, Math.abs(mood.warmth) * 0.35);
    }
    s = clamp01(s * mood.saturation);
    l = clamp01((l - 0.5) * mood.contrast + 0.5 + mood.brightness);
    return hslToRgb(h, s, l);
  });
}

/**
 * A palette generated from a hash, for prompts that name no theme: any words give their own colours.
 * Two curated themes are blended and the result turned round the hue wheel, so every hash lands on a
 * harmonious palette rather than random colours.
 */
export function paletteFromHash(hash: number): Palette {
  const pool = THEME_NAMES.filter((t) => t !== 'monochrome' && t !== 'sepia');
  const a = THEMES[pool[hash % pool.length]!];
  const b = THEMES[pool[(hash >>> 8) % pool.length]!];
  const mixed = mixPalettes(a, b, 0.2 + ((hash >>> 16) % 40) / 100);
  const turn = ((hash >>> 20) % 90) - 45;
  return mapPalette(mixed, (c) => {
    const [h, s, l] = rgbToHsl(c);
    return hslToRgb(h + turn, s, l);
  });
}

/** Colour words → hue (and a fixed lightness for white/black/grey). */
export const COLOUR_WORDS: Record<string, { hue: number; sat: number; light?: number }> = {
  red: { hue: 355, sat: 0.8 },
  crimson: { hue: 348, sat: 0.8 },
  scarlet: { hue: 5, sat: 0.85 },
  orange: { hue: 28, sat: 0.9 },
  amber: { hue: 40, sat: 0.9 },
  yellow: { hue: 52, sat: 0.9 },
  gold: { hue: 45, sat: 0.8 },
  golden: { hue: 45, sat: 0.8 },
  lime: { hue: 90, sat: 0.8 },
  green: { hue: 130, sat: 0.65 },
  emerald: { hue: 150, sat: 0.7 },
  teal: { hue: 178, sat: 0.7 },
  turquoise: { hue: 174, sat: 0.75 },
  cyan: { hue: 186, sat: 0.85 },
  aqua: { hue: 185, sat: 0.8 },
  blue: { hue: 218, sat: 0.75 },
  azure: { hue: 205, sat: 0.8 },
  navy: { hue: 228, sat: 0.7 },
  indigo: { hue: 250, sat: 0.65 },
  violet: { hue: 275, sat: 0.65 },
  purple: { hue: 282, sat: 0.6 },
  lavender: { hue: 268, sat: 0.5 },
  magenta: { hue: 305, sat: 0.85 },
  pink: { hue: 335, sat: 0.7 },
  rose: { hue: 345, sat: 0.6 },
  brown: { hue: 25, sat: 0.45 },
  copper: { hue: 22, sat: 0.65 },
};
