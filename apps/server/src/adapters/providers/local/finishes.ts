import { clamp01, createCanvas, smoothstep, type Canvas } from './canvas.ts';
import type { Plan } from './composition.ts';
import { fbmField, type ValueNoise } from './noise.ts';
import type { Rng } from './random.ts';

/**
 * Surface finishes applied after the layers: low-poly facets (geometric), watercolour washes, oil
 * brush strokes, then tone (vignette, monochrome) and, at full resolution, film grain.
 */

/** Low-poly: a jittered triangle mesh, each facet filled with the colour under its centroid. */
export function facet(src: Canvas, cellsAcross: number, rng: Rng): Canvas {
  const { width: w, height: h } = src;
  const cell = Math.max(w, h) / cellsAcross;
  const cols = Math.ceil(w / cell);
  const rows = Math.ceil(h / cell);
  const vx = new Float32Array((cols + 1) * (rows + 1));
  const vy = new Float32Array((cols + 1) * (rows + 1));
  for (let r = 0; r <= rows; r++)
    for (let c = 0; c <= cols; c++) {
      const j = r * (cols + 1) + c;
      const jx = c === 0 || c === cols ? 0 : (rng.next() - 0.5) * cell * 0.8;
      const jy = r === 0 || r === rows ? 0 : (rng.next() - 0.5) * cell * 0.8;
      vx[j] = Math.min(w, c * cell) + jx;
      vy[j] = Math.min(h, r * cell) + jy;
    }
  const out = createCanvas(w, h);
  const s = src.data;
  const o = out.data;
  const tri = (a: number, b: number, c: number, shade: number) => {
    const ax = vx[a]!,
      ay = vy[a]!,
      bx = vx[b]!,
      by = vy[b]!,
      cx = vx[c]!,
      cy = vy[c]!;
    // The facet's colour: the mean of four samples (centroid and toward each corner), so one stray
    // bright pixel does not decide a whole facet.
    const mx = (ax + bx + cx) / 3;
    const my = (ay + by + cy) / 3;
    let r = 0;
    let g = 0;
    let bl = 0;
    for (const [px, py] of [
      [mx, my],
      [(mx + ax) / 2, (my + ay) / 2],
      [(mx + bx) / 2, (my + by) / 2],
      [(mx + cx) / 2, (my + cy) / 2],
    ] as const) {
      const si = (Math.min(h - 1, Math.max(0, py | 0)) * w + Math.min(w - 1, Math.max(0, px | 0))) * 3;
      r += s[si]!;
      g += s[si + 1]!;
      bl += s[si + 2]!;
    }
    r = clamp01((r / 4) * shade);
    g = clamp01((g / 4) * shade);
    bl = clamp01((bl / 4) * shade);
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (area === 0) return;
    const sign = area > 0 ? 1 : -1;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(h - 1, Math.ceil(Math.max(ay, by, cy)));
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      let i = (y * w + x0) * 3;
      for (let x = x0; x <= x1; x++, i += 3) {
        const px = x + 0.5;
        const e0 = ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) * sign;
        const e1 = ((cx - bx) * (py - by) - (cy - by) * (px - bx)) * sign;
        const e2 = ((ax - cx) * (py - cy) - (ay - cy) * (px - cx)) * sign;
        if (e0 >= 0 && e1 >= 0 && e2 >= 0) {
          o[i] = r;
          o[i + 1] = g;
          o[i + 2] = bl;
        }
      }
    }
  };
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const a = r * (cols + 1) + c;
      const b = a + 1;
      const cc = a + cols + 1;
      const dd = cc + 1;
      const lift = 0.05;
      if (rng.chance(0.5)) {
        tri(a, b, dd, 1 + lift * (rng.next() - 0.3));
        tri(a, dd, cc, 1 - lift * rng.next());
      } else {
        tri(a, b, cc, 1 + lift * (rng.next() - 0.3));
        tri(b, dd, cc, 1 - lift * rng.next());
      }
    }
  return out;
}

/** Watercolour: wobbly displaced edges, pigment blotches and pooling, paper showing through. */
export function watercolor(src: Canvas, noise: ValueNoise): Canvas {
  const { width: w, height: h } = src;
  const m = Math.max(w, h);
  const wx = fbmField(noise, w, h, { scale: m * 0.06, octaves: 3, cell: 4, offsetX: 500 });
  const wy = fbmField(noise, w, h, { scale: m * 0.06, octaves: 3, cell: 4, offsetX: 700 });
  const blot = fbmField(noise, w, h, { scale: m * 0.14, octaves: 3, cell: 4, offsetX: 900 });
  const amp = m * 0.018;
  const out = createCanvas(w, h);
  const s = src.data;
  const o = out.data;
  for (let y = 0; y < h; y++) {
    let i = y * w * 3;
    for (let x = 0; x < w; x++, i += 3) {
      const sx = Math.min(w - 1, Math.max(0, Math.round(x + (wx.sample(x, y) - 0.5) * amp * 2)));
      const sy = Math.min(h - 1, Math.max(0, Math.round(y + (wy.sample(x, y) - 0.5) * amp * 2)));
      const j = (sy * w + sx) * 3;
      const b = blot.sample(x, y);
      // Washes: pigment pools darker along the soft edge of each wash; elsewhere paper shows through
      // a little, and fully at the ragged margins of the sheet.
      const e = (b - 0.5) / 0.035;
      const rim = Math.exp(-e * e);
      const edge = Math.min(x, y, w - 1 - x, h - 1 - y) / m + (b - 0.5) * 0.06;
      const thin = 0.05 + 0.16 * (1 - smoothstep(0.3, 0.7, b)) + 0.95 * (1 - smoothstep(0.012, 0.05, edge));
      const k = thin > 1 ? 1 : thin;
      const pool = 1 - rim * 0.08;
      o[i] = (s[j]! + (0.98 - s[j]!) * k) * pool;
      o[i + 1] = (s[j + 1]! + (0.96 - s[j + 1]!) * k) * pool;
      o[i + 2] = (s[j + 2]! + (0.91 - s[j + 2]!) * k) * pool;
    }
  }
  return out;
}

/** Oil paint: thousands of short oriented strokes, each a sampled colour with bristle streaks. */
export function oilPaint(src: Canvas, noise: ValueNoise, rng: Rng): Canvas {
  const { width: w, height: h } = src;
  const s = src.data;
  const out = createCanvas(w, h);
  const o = out.data;
  o.set(s);
  const m = Math.max(w, h);
  const len = m * 0.028;
  const wid = m * 0.008;
  const strokes = Math.round(((w * h) / (len * wid)) * 1.6);
  const flow = fbmField(noise, w, h, { scale: m * 0.3, octaves: 2, cell: 8, offsetX: 1300 });
  for (let n = 0; n < strokes; n++) {
    const cx = rng.next() * w;
    const cy = rng.next() * h;
    const ci = ((cy | 0) * w + (cx | 0)) * 3;
    const jitter = 1 + (rng.next() - 0.5) * 0.12;
    const r = s[ci]! * jitter;
    const g = s[ci + 1]! * jitter;
    const b = s[ci + 2]! * jitter;
    const angle = (flow.sample(cx, cy) - 0.5) * Math.PI * 1.1;
    const ca = Math.cos(angle);
    const sa = Math.sin(angle);
    const L = len * (0.6 + rng.next() * 0.8);
    const W = wid * (0.7 + rng.next() * 0.6);
    const bristle = rng.next() * 10;
    const ext = Math.ceil(L / 2 + W);
    const x0 = Math.max(0, Math.floor(cx - ext));
    const x1 = Math.min(w - 1, Math.ceil(cx + ext));
    const y0 = Math.max(0, Math.floor(cy - ext));
    const y1 = Math.min(h - 1, Math.ceil(cy + ext));
    for (let y = y0; y <= y1; y++) {
      let i = (y * w + x0) * 3;
      for (let x = x0; x <= x1; x++, i += 3) {
        const dx = x - cx;
        const dy = y - cy;
        const u = dx * ca + dy * sa;
        const v = -dx * sa + dy * ca;
        const eu = Math.abs(u) / (L / 2);
        const ev = Math.abs(v) / (W / 2);
        if (eu >= 1 || ev >= 1) continue;
        const a = (1 - eu * eu * eu) * (1 - ev * ev) * 0.9;
        const streak = 1 + 0.07 * Math.sin(v * 2.4 + bristle) - 0.05 * ev;
        o[i] = o[i]! + (r * streak - o[i]!) * a;
        o[i + 1] = o[i + 1]! + (g * streak - o[i + 1]!) * a;
        o[i + 2] = o[i + 2]! + (b * streak - o[i + 2]!) * a;
      }
    }
  }
  return out;
}

/** Tone: vignette, desaturation (monochrome/sepia) and the preset's contrast/saturation. */
export function tone(canvas: Canvas, plan: Plan, sepia: boolean): void {
  const { width: w, height: h, data: d } = canvas;
  const cx = w / 2;
  const cy = h / 2;
  const inv = 1 / (cx * cx + cy * cy);
  const v = plan.vignette;
  const mono = plan.mono;
  for (let y = 0; y < h; y++) {
    let i = y * w * 3;
    const dy2 = (y - cy) * (y - cy);
    for (let x = 0; x < w; x++, i += 3) {
      const q = ((x - cx) * (x - cx) + dy2) * inv;
      const k = 1 - v * q * q;
      let r = d[i]! * k;
      let g = d[i + 1]! * k;
      let b = d[i + 2]! * k;
      if (mono > 0) {
        const l = r * 0.299 + g * 0.587 + b * 0.114;
        const tr = sepia ? l * 1.07 : l;
        const tb = sepia ? l * 0.82 : l;
        r += (tr - r) * mono;
        g += (l - g) * mono;
        b += (tb - b) * mono;
      }
      d[i] = r;
      d[i + 1] = g;
      d[i + 2] = b;
    }
  }
}

/** Film grain on the final 8-bit pixels (full resolution, so it stays crisp after upscaling). */
export function grain(pixels: Buffer, amount: number, seed: number): void {
  let s = seed >>> 0 || 1;
  for (let i = 0; i < pixels.length; i += 3) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const n = (((s >>> 0) & 0xffff) / 65535 - 0.5) * amount;
    pixels[i] = clampByte(pixels[i]! + n);
    pixels[i + 1] = clampByte(pixels[i + 1]! + n);
    pixels[i + 2] = clampByte(pixels[i + 2]! + n);
  }
}

const clampByte = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
