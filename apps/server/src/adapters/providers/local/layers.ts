import { blend, clamp01, screen, smoothstep, type Canvas } from './canvas.ts';
import type { Plan } from './composition.ts';
import { fbmField, type ValueNoise } from './noise.ts';
import { mixRgb, type Palette, type Rgb } from './palette.ts';
import type { Rng } from './random.ts';

/**
 * The painted layers of a local-engine image, back to front: sky, stars, sun/moon, clouds, land or
 * city, water (reflecting what is above it), figure, fog. Each works in place on a float canvas with
 * tight typed-array loops (no per-pixel allocation).
 */

export interface LayerContext {
  canvas: Canvas;
  plan: Plan;
  palette: Palette;
  rng: Rng;
  noise: ValueNoise;
}

// ---------------------------------------------------------------------------------------------
// Sky

export function paintSky({ canvas, plan, palette }: LayerContext): void {
  const { width: w, height: h, data: d } = canvas;
  const horizonPx = Math.max(1, plan.horizon * h);
  const { skyTop, skyMid, skyHorizon, glow } = palette;
  const bands = plan.minimal ? 5 : 0;
  const disc = plan.disc;
  const gx = disc ? disc.x * w : w / 2;
  const gy = disc ? disc.y * h : horizonPx;
  const glowR = Math.max(w, h) * (disc ? 0.45 + disc.r : 0.6);
  const glowA = (disc ? (disc.kind === 'sun' ? 0.65 : 0.3) : 0.25) * plan.bloom * plan.presence;
  const inv = 1 / (glowR * glowR);
  for (let y = 0; y < h; y++) {
    let t = Math.min(1, y / horizonPx);
    if (bands) t = Math.min(1, Math.floor(t * bands + 0.5) / bands);
    const k = t < 0.55 ? smoothstep(0, 0.55, t) : smoothstep(0.55, 1, t);
    const a = t < 0.55 ? skyTop : skyMid;
    const b = t < 0.55 ? skyMid : skyHorizon;
    const r = a[0] + (b[0] - a[0]) * k;
    const g = a[1] + (b[1] - a[1]) * k;
    const bl = a[2] + (b[2] - a[2]) * k;
    const dy2 = (y - gy) * (y - gy);
    let i = y * w * 3;
    for (let x = 0; x < w; x++, i += 3) {
      d[i] = r;
      d[i + 1] = g;
      d[i + 2] = bl;
      if (!bands && glowA > 0) {
        const q = ((x - gx) * (x - gx) + dy2) * inv;
        if (q < 4) screen(d, i, glow, glowA * Math.exp(-q * 2.2));
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Stars

export function paintStars({ canvas, plan, palette, rng }: LayerContext): void {
  if (plan.stars <= 0) return;
  const { width: w, height: h, data: d } = canvas;
  const skyBottom = Math.min(plan.horizon, 1) * h;
  const count = Math.round(((w * skyBottom) / 520) * plan.stars);
  const white: Rgb = [1, 1, 1];
  for (let s = 0; s < count; s++) {
    const x = rng.next() * (w - 2) + 1;
    const y = rng.next() * rng.next() * (skyBottom - 2) + 1; // denser toward the zenith
    const fade = 1 - smoothstep(0.55, 1, y / skyBottom);
    const b = (0.35 + 0.65 * Math.pow(rng.next(), 2.2)) * fade * plan.presence;
    const c = rng.chance(0.25) ? palette.glow : white;
    const xi = x | 0;
    const yi = y | 0;
    const i = (yi * w + xi) * 3;
    screen(d, i, c, b);
    if (b > 0.55 && rng.chance(0.6)) {
      // A brighter star: a soft cross.
      const a = b * 0.45;
      screen(d, i - 3, c, a);
      screen(d, i + 3, c, a);
      screen(d, i - w * 3, c, a);
      screen(d, i + w * 3, c, a);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sun / moon

export function paintDisc({ canvas, plan, palette, noise }: LayerContext): void {
  const disc = plan.disc;
  if (!disc) return;
  const { width: w, height: h, data: d } = canvas;
  const m = Math.min(w, h);
  const cx = disc.x * w;
  const cy = disc.y * h;
  const r = disc.r * m;
  const halo = disc.kind === 'moon' ? r * 2.6 : r * 1.6;
  const x0 = Math.max(0, Math.floor(cx - halo));
  const x1 = Math.min(w - 1, Math.ceil(cx + halo));
  const y0 = Math.max(0, Math.floor(cy - halo));
  const y1 = Math.min(h - 1, Math.ceil(cy + halo));
  const core = disc.kind === 'sun' ? mixRgb(palette.disc, [1, 1, 1], 0.3) : palette.disc;
  const shade = mixRgb(palette.disc, palette.skyMid, 0.35);
  const a = plan.presence;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const dist = Math.hypot(x - cx, y - cy);
      const i = (y * w + x) * 3;
      const cover = clamp01(r - dist + 0.5);
      if (dist > r - 1) {
        const t = (dist - r) / (halo - r);
        if (t < 1) screen(d, i, palette.glow, (1 - t) * (1 - t) * 0.45 * a * (plan.minimal ? 0 : 1));
      }
      if (cover <= 0) continue;
      let t = 0;
      if (disc.kind === 'moon' && !plan.minimal) {
        // Maria and craters: darker patches from noise, limb darkening toward the edge.
        const n = noise.fbm((x - cx) / (r * 0.45) + 40, (y - cy) / (r * 0.45) + 40, 3);
        t = smoothstep(0.5, 0.62, n) * 0.35 + 0.15 * (dist / r) ** 3;
      }
      const ca = cover * a;
      d[i] = d[i]! + (core[0] + (shade[0] - core[0]) * t - d[i]!) * ca;
      d[i + 1] = d[i + 1]! + (core[1] + (shade[1] - core[1]) * t - d[i + 1]!) * ca;
      d[i + 2] = d[i + 2]! + (core[2] + (shade[2] - core[2]) * t - d[i + 2]!) * ca;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Clouds

export function paintClouds({ canvas, plan, palette, noise }: LayerContext): void {
  if (plan.clouds <= 0 || plan.abstract) return;
  const { width: w, height: h, data: d } = canvas;
  const bottom = Math.min(plan.horizon, 0.95) * h;
  const field = fbmField(noise, w, Math.ceil(bottom), {
    scale: w * 0.22,
    octaves: 5,
    cell: 4,
    stretchX: 4.5,
    offsetX: 100,
    offsetY: 50,
  });
  const threshold = 0.62 - plan.clouds * 0.14;
  const lit = mixRgb(palette.glow, palette.skyHorizon, 0.3);
  const dark = mixRgb(palette.skyMid, palette.skyTop, 0.45);
  for (let y = 0; y < bottom; y++) {
    const band = smoothstep(0, 0.25, y / bottom) * (1 - smoothstep(0.7, 1, y / bottom));
    if (band <= 0) continue;
    let i = y * w * 3;
    for (let x = 0; x < w; x++, i += 3) {
      const n = field.sample(x, y);
      const a = smoothstep(threshold, threshold + 0.16, n) * band * 0.85;
      if (a <= 0.003) continue;
      // Thicker cloud is darker at its core, lit at its thin edges.
      const t = smoothstep(threshold + 0.05, threshold + 0.3, n) * 0.7;
      d[i] = d[i]! + (lit[0] + (dark[0] - lit[0]) * t - d[i]!) * a;
      d[i + 1] = d[i + 1]! + (lit[1] + (dark[1] - lit[1]) * t - d[i + 1]!) * a;
      d[i + 2] = d[i + 2]! + (lit[2] + (dark[2] - lit[2]) * t - d[i + 2]!) * a;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Land: ridgelines (mountains, hills, dunes) with an optional tree line

/** One silhouette row per column: the y where the layer starts. */
function ridgeProfile(ctx: LayerContext, layer: number, layers: number): Float32Array {
  const { canvas, plan, noise, rng } = ctx;
  const { width: w, height: h } = canvas;
  const f = layers > 1 ? layer / (layers - 1) : 1;
  const hz = plan.horizon * h;
  const top = new Float32Array(w);
  let base: number;
  let amp: number;
  if (plan.water) {
    base = hz - h * (0.03 + 0.04 * (1 - f));
    amp = h * (0.26 - 0.14 * f);
  } else {
    base = hz - h * 0.1 + f * h * 0.2;
    amp =
      h *
      (plan.ground === 'mountains'
        ? 0.25 - 0.1 * f
        : plan.ground === 'dunes'
          ? 0.085 - 0.02 * f
          : 0.1 - 0.02 * f);
  }
  const freq = (plan.ground === 'mountains' ? 2.2 + f * 1.4 : 1.3 + f * 0.8) / w;
  const off = layer * 37.3 + rng.next() * 100;
  const phase = rng.next() * Math.PI * 2;
  for (let x = 0; x < w; x++) {
    let v: number;
    if (plan.ground === 'mountains') {
      const n = noise.fbm(x * freq + off, layer * 9.1, plan.minimal ? 2 : 6);
      const ridged = 1 - Math.abs(2 * n - 1);
      v = ridged * ridged * 1.25 + n * 0.35;
    } else if (plan.ground === 'dunes') {
      // Asymmetric dunes: a long windward rise, a short steep slip face.
      const s = (x * freq * 5 + phase + layer * 2.1) % (Math.PI * 2);
      v =
        0.15 +
        0.85 * (s < 4 ? Math.sin((s / 4) * Math.PI * 0.5) : Math.cos(((s - 4) / 2.28) * Math.PI * 0.5));
      v += (noise.fbm(x * freq + off, layer, 3) - 0.5) * 0.3;
    } else {
      v = noise.fbm(x * freq + off, layer * 9.1, plan.minimal ? 2 : 3) * 1.4 - 0.2;
    }
    top[x] = base - amp * v;
  }
  // A low sun sets into a valley: every ridge dips around it (nearer ridges less).
  const disc = plan.disc;
  if (disc && disc.y > plan.horizon - 0.4 && plan.ground === 'mountains') {
    const sx = disc.x * w;
    const spread = w * 0.16 + disc.r * Math.min(w, h) * 1.5;
    const dip = amp * (0.85 - 0.4 * f);
    for (let x = 0; x < w; x++) {
      const q = (x - sx) / spread;
      top[x] = top[x]! + dip * Math.exp(-q * q);
    }
  }
  if (plan.forest && layer > 0) addTrees(top, ctx, f);
  return top;
}

/** Raises a profile with conifer silhouettes (triangles with a slight droop). */
function addTrees(top: Float32Array, { canvas, rng }: LayerContext, f: number): void {
  const w = canvas.width;
  const size = canvas.height * (0.05 + 0.1 * f);
  let x = rng.range(0, size * 0.4);
  while (x < w + size) {
    const th = size * rng.range(0.6, 1.25);
    const half = th * rng.range(0.2, 0.28);
    const cx = Math.round(x);
    const baseY = top[Math.min(w - 1, Math.max(0, cx))]! + th * 0.12;
    for (let xx = Math.max(0, Math.floor(cx - half)); xx <= Math.min(w - 1, Math.ceil(cx + half)); xx++) {
      const t = Math.abs(xx - cx) / half;
      const tier = 1 - 0.12 * Math.abs(Math.sin(t * 9)); // tiered branches
      const y = baseY - th * (1 - t) * tier;
      if (y < top[xx]!) top[xx] = y;
    }
    x += half * rng.range(0.9, 2.0);
  }
}

export function paintGround(ctx: LayerContext): void {
  const { canvas, plan, palette, noise } = ctx;
  if (!plan.ground) return;
  const { width: w, height: h, data: d } = canvas;
  const n = plan.layers;
  const bottom = plan.water ? Math.ceil(plan.horizon * h) : h;
  const haze = mixRgb(palette.skyHorizon, palette.fog, 0.5);
  const grainField = plan.minimal
    ? null
    : fbmField(noise, w, h, { scale: w * 0.08, octaves: 3, cell: 6, stretchX: 2.5, offsetY: 700 });
  const fog = palette.fog;
  for (let layer = 0; layer < n; layer++) {
    const f = n > 1 ? layer / (n - 1) : 1;
    const top = ridgeProfile(ctx, layer, n);
    const colour = palette.land[Math.min(3, Math.round(f * 3))]!;
    // Atmospheric perspective: far layers fade into the horizon haze.
    const body = mixRgb(colour, haze, (1 - f) * 0.45 * (1 - plan.fog * 0.3) + plan.fog * 0.25 * (1 - f));
    const lit = mixRgb(body, palette.glow, plan.minimal ? 0 : 0.22);
    const snowC = mixRgb([0.96, 0.97, 1], palette.glow, 0.2);
    const depth = h * 0.22;
    const fogA = layer < n - 1 ? plan.fog * (0.55 + 0.35 * (1 - f)) : plan.fog * 0.25;
    const snow = plan.snow && plan.ground === 'mountains';
    const near = layer === n - 1 && !plan.water;
    for (let x = 0; x < w; x++) {
      const t0 = top[x]!;
      const ys = Math.max(0, Math.floor(t0));
      let i = (ys * w + x) * 3;
      for (let y = ys; y < bottom; y++, i += w * 3) {
        const cover = clamp01(y + 1 - t0);
        const k = (y - t0) / depth;
        // Lit ridge edge, then the body (with a little painterly variation), fading into fog.
        const e = plan.minimal ? 0 : 1 - smoothstep(0, 0.1, k);
        const v0 = grainField ? 0.94 + 0.12 * grainField.sample(x, y) : 1;
        const v = near ? v0 * (1 - 0.35 * smoothstep(0, 3, k)) : v0;
        let r = (body[0] + (lit[0] - body[0]) * e) * v;
        let g = (body[1] + (lit[1] - body[1]) * e) * v;
        let b = (body[2] + (lit[2] - body[2]) * e) * v;
        if (snow && k < 0.1 + 0.08 * Math.sin(x * 0.23) * (1 - f)) {
          r += (snowC[0] - r) * 0.85;
          g += (snowC[1] - g) * 0.85;
          b += (snowC[2] - b) * 0.85;
        }
        if (fogA > 0) {
          const fa = fogA * smoothstep(0.1, 1.4, k);
          r += (fog[0] - r) * fa;
          g += (fog[1] - g) * fa;
          b += (fog[2] - b) * fa;
        }
        d[i] = d[i]! + (r - d[i]!) * cover;
        d[i + 1] = d[i + 1]! + (g - d[i + 1]!) * cover;
        d[i + 2] = d[i + 2]! + (b - d[i + 2]!) * cover;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// City

/**
 * Paints the skyline; returns a function that paints the lit windows onto a canvas (called at once,
 * or after the low-poly pass so windows stay crisp).
 */
export function paintCity(ctx: LayerContext): (target: Canvas) => void {
  const { canvas, plan, palette, rng } = ctx;
  const skyLum = (palette.skyMid[0] + palette.skyMid[1] + palette.skyMid[2]) / 3;
  const night = skyLum < 0.4;
  const windows: Array<[number, number, number, number, number]> = [];
  const paintAllWindows = (target: Canvas) => {
    for (const [x0, x1, top, ground, f] of windows)
      paintWindows({ ...ctx, canvas: target }, x0, x1, top, ground, night, f);
  };
  if (!plan.city) return paintAllWindows;
  const { width: w, height: h, data: d } = canvas;
  const ground = Math.ceil(Math.min(plan.horizon, 1) * h);
  const haze = mixRgb(palette.skyHorizon, palette.fog, 0.4);
  const layers = plan.minimal ? 2 : 3;
  for (let layer = 0; layer < layers; layer++) {
    const f = layer / (layers - 1);
    const scale = plan.water ? 0.55 : 1;
    const body = mixRgb(mixRgb(palette.land[3], palette.ink, f), haze, (1 - f) * 0.55);
    let x = -rng.range(0, w * 0.05);
    while (x < w) {
      const bw = w * rng.range(0.045, 0.11) * (0.8 + 0.3 * f);
      const bh = h * scale * rng.range(0.18, 0.52) * (1.15 - 0.35 * f) * (rng.chance(0.12) ? 1.35 : 1);
      const top = ground - bh;
      const x0 = Math.max(0, Math.round(x));
      const x1 = Math.min(w, Math.round(x + bw));
      const stepped = rng.chance(0.3);
      const antenna = rng.chance(0.25);
      for (let xx = x0; xx < x1; xx++) {
        const inset = stepped && (xx - x0 < bw * 0.2 || x1 - xx < bw * 0.2) ? bh * 0.08 : 0;
        for (let y = Math.max(0, Math.floor(top + inset)); y < ground; y++)
          blend(d, (y * w + xx) * 3, body, 1);
      }
      if (antenna) {
        const ax = Math.round(x + bw / 2);
        for (let y = Math.max(0, Math.floor(top - bh * 0.15)); y < top; y++)
          if (ax >= 0 && ax < w) blend(d, (y * w + ax) * 3, body, 1);
      }
      if (layer > 0) windows.push([x0, x1, top + bh * 0.04, ground, f]);
      x += bw + w * rng.range(0, 0.012);
    }
  }
  return paintAllWindows;
}

function paintWindows(
  { canvas, palette, rng, plan }: LayerContext,
  x0: number,
  x1: number,
  top: number,
  bottom: number,
  night: boolean,
  f: number,
): void {
  const { width: w, data: d } = canvas;
  const size = Math.max(1, Math.round(canvas.width * (0.004 + 0.003 * f)));
  const gap = size + Math.max(1, Math.round(size * 0.8));
  const warm = night ? (rng.chance(0.5) ? palette.accents[0] : palette.accents[1]) : palette.skyHorizon;
  const lightP = night ? 0.42 : 0.25;
  const alpha = (night ? 0.95 : 0.25) * (0.6 + 0.4 * f) * plan.presence;
  for (let y = Math.ceil(top + gap); y + size < bottom - gap; y += gap) {
    for (let x = x0 + gap; x + size < x1 - gap / 2; x += gap) {
      if (!rng.chance(lightP)) continue;
      const c = night && rng.chance(0.2) ? palette.accents[2] : warm;
      for (let yy = y; yy < y + size; yy++)
        for (let xx = x; xx < x + size; xx++) blend(d, (yy * w + xx) * 3, c, alpha);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Water: mirror what lies above the horizon, ripple it, add wave crests and a glitter path

export function paintWater(ctx: LayerContext): void {
  const { canvas, plan, palette, noise } = ctx;
  if (!plan.water) return;
  const { width: w, height: h, data: d } = canvas;
  const hz = Math.floor(plan.horizon * h);
  const span = h - hz;
  const ripple = fbmField(noise, w, span, {
    scale: w * 0.05,
    octaves: 3,
    cell: 3,
    stretchX: 6,
    offsetY: 300,
  });
  const disc = plan.disc;
  const dcx = disc ? disc.x * w : -1e9;
  const dr = disc ? disc.r * Math.min(w, h) : 1;
  const crestC = mixRgb(palette.glow, palette.accents[1], 0.3);
  const deep = palette.water;
  for (let y = hz; y < h; y++) {
    const dy = y - hz;
    const p = dy / span;
    const wave = 4 + p * w * 0.03;
    let i = y * w * 3;
    for (let x = 0; x < w; x++, i += 3) {
      const rv = ripple.sample(x, dy) - 0.5;
      let sx = Math.round(x + rv * wave);
      sx = sx < 0 ? 0 : sx >= w ? w - 1 : sx;
      const sy = Math.max(0, hz - 1 - Math.round(dy * 1.1 + rv * wave * 0.5));
      const j = (sy * w + sx) * 3;
      const mixK = 0.3 + 0.45 * p;
      d[i] = d[j]! * 0.82 + (deep[0] - d[j]! * 0.82) * mixK;
      d[i + 1] = d[j + 1]! * 0.82 + (deep[1] - d[j + 1]! * 0.82) * mixK;
      d[i + 2] = d[j + 2]! * 0.82 + (deep[2] - d[j + 2]! * 0.82) * mixK;
      if (plan.minimal || plan.texture === 'geometric') continue;
      // Crests: bands that widen toward the viewer (perspective), broken up by the ripple field.
      const band = Math.sin(Math.log(1 + dy / (h * 0.012)) * 14 + rv * 9);
      const crest = smoothstep(0.82, 1, band) * (0.12 + 0.22 * (1 - p));
      if (crest > 0) screen(d, i, crestC, crest);
      if (disc) {
        const gx = Math.abs(x - dcx) / (dr * (0.7 + 2.2 * p));
        if (gx < 2)
          screen(d, i, palette.disc, Math.exp(-gx * gx * 2) * smoothstep(0.3, 1, band * 0.5 + 0.5) * 0.8);
      }
    }
  }
}

/** Foreground breakers: rolling bands with foam crests, for "waves". */
export function paintWaves(ctx: LayerContext): void {
  const { canvas, plan, palette, noise, rng } = ctx;
  if (!plan.waves) return;
  const { width: w, height: h, data: d } = canvas;
  const foam = mixRgb([1, 1, 1], palette.accents[1], 0.15);
  for (let b = 0; b < 3; b++) {
    const base = h * (0.74 + b * 0.09);
    const amp = h * (0.025 + b * 0.015);
    const f1 = (2 + rng.next() * 2) / w;
    const ph = rng.next() * 10;
    const body = mixRgb(palette.water, palette.ink, 0.15 + b * 0.15);
    const light = mixRgb(palette.water, palette.glow, 0.35);
    for (let x = 0; x < w; x++) {
      // Sharp crests, round troughs (a trochoid-like profile), roughened by noise.
      const s1 = 1 - Math.abs(Math.sin(x * f1 * Math.PI + ph));
      const s2 = 1 - Math.abs(Math.sin(x * f1 * 2.7 + ph * 2));
      const t0 = base - amp * (s1 * s1 * 1.6 + 0.35 * s2) - amp * 0.5 * noise.fbm(x / (w * 0.04), b * 13, 3);
      const ys = Math.max(0, Math.floor(t0));
      for (let y = ys; y < h; y++) {
        const k = y - t0;
        const i = (y * w + x) * 3;
        const t = smoothstep(0, h * 0.08, k);
        const a = clamp01(k + 1);
        d[i] = d[i]! + (light[0] + (body[0] - light[0]) * t - d[i]!) * a;
        d[i + 1] = d[i + 1]! + (light[1] + (body[1] - light[1]) * t - d[i + 1]!) * a;
        d[i + 2] = d[i + 2]! + (light[2] + (body[2] - light[2]) * t - d[i + 2]!) * a;
        const fo = (1 - smoothstep(0, h * 0.012, k)) * (0.6 + 0.4 * noise.at(x * 0.15, y * 0.4 + b * 50));
        if (fo > 0) blend(d, i, foam, fo * 0.9 * plan.presence);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Figure: a head-and-shoulders silhouette with rim light

export function paintFigure(ctx: LayerContext): void {
  const { canvas, plan, palette } = ctx;
  const fig = plan.figure;
  if (!fig) return;
  const { width: w, height: h, data: d } = canvas;
  const m = Math.min(w, h) * fig.scale;
  const cx = fig.x * w;
  // Proportions from the bottom edge: head, neck, then shoulders sloping into the frame.
  const headY = h - m * 0.6;
  const hr = m * 0.125;
  const hrY = m * 0.16;
  const shoulderY = h + m * 0.02;
  const k = m * 0.05;
  if (fig.halo) {
    const r = m * 0.3;
    const haloC = mixRgb(palette.glow, palette.accents[0], 0.35);
    for (let y = Math.max(0, Math.floor(headY - r)); y < Math.min(h, headY + r); y++)
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(w, cx + r); x++) {
        const c = clamp01(r - Math.hypot(x - cx, y - headY) + 0.5);
        if (c > 0) blend(d, (y * w + x) * 3, haloC, c * 0.85 * plan.presence);
      }
  }
  const body = mixRgb(palette.ink, palette.land[3], 0.35);
  const rimC = mixRgb(palette.glow, palette.accents[0], 0.4);
  const y0 = Math.max(0, Math.floor(headY - hrY * 1.3));
  const x0 = Math.max(0, Math.floor(cx - m * 0.5));
  const x1 = Math.min(w, Math.ceil(cx + m * 0.5));
  const lightX = plan.disc ? Math.sign(plan.disc.x - fig.x) || -1 : -1;
  for (let y = y0; y < h; y++) {
    let i = (y * w + x0) * 3;
    for (let x = x0; x < x1; x++, i += 3) {
      const dx = x - cx;
      const head = ellipse(dx, y - headY, hr, hrY);
      const neck = Math.max(Math.abs(dx) - m * 0.055, Math.abs(y - (h - m * 0.36)) - m * 0.1);
      const torso = ellipse(dx, y - shoulderY, m * 0.44, m * 0.32);
      let sd = smin(smin(head, neck, k * 0.5), torso, k * 1.6);
      if (fig.longHair) {
        // Hair: volume over the crown, falling past the jaw to the shoulders.
        const crown = ellipse(dx, y - headY + m * 0.012, hr * 1.28, hrY * 1.12);
        const fall = ellipse(dx, y - headY - m * 0.11, hr * 1.3, m * 0.17);
        sd = smin(sd, smin(crown, fall, k * 0.6), k * 0.3);
      }
      if (sd > 1) continue;
      const cover = clamp01(0.5 - sd);
      blend(d, i, body, cover * plan.presence);
      // Rim light along the edge facing the light.
      const side = clamp01(0.5 + 0.7 * (dx / (m * 0.3)) * lightX);
      const rim = (1 - smoothstep(0, m * 0.025, -sd)) * side * cover;
      if (rim > 0 && !plan.minimal) screen(d, i, rimC, rim * 0.75 * plan.presence);
    }
  }
}

const ellipse = (x: number, y: number, rx: number, ry: number) =>
  (Math.sqrt((x * x) / (rx * rx) + (y * y) / (ry * ry)) - 1) * Math.min(rx, ry);

const smin = (a: number, b: number, k: number) => {
  const hh = clamp01(0.5 + (0.5 * (b - a)) / k);
  return b + (a - b) * hh - k * hh * (1 - hh);
};

// ---------------------------------------------------------------------------------------------
// Fog: low drifting mist over everything painted so far

export function paintFog(ctx: LayerContext): void {
  const { canvas, plan, palette, noise } = ctx;
  if (plan.fog < 0.5 || plan.abstract) return;
  const { width: w, height: h, data: d } = canvas;
  const field = fbmField(noise, w, h, { scale: w * 0.25, octaves: 4, cell: 6, stretchX: 4, offsetX: 900 });
  const hz = Math.min(plan.horizon, 0.9) * h;
  for (let y = 0; y < h; y++) {
    const v = smoothstep(hz - h * 0.35, hz + h * 0.05, y) * (1 - smoothstep(hz + h * 0.15, h * 1.1, y) * 0.6);
    if (v <= 0) continue;
    let i = y * w * 3;
    for (let x = 0; x < w; x++, i += 3) {
      const n = field.sample(x, y);
      blend(d, i, palette.fog, v * plan.fog * 0.6 * smoothstep(0.3, 0.7, n));
    }
  }
}
