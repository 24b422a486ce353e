import { blend, smoothstep, type Canvas } from './canvas.ts';
import type { LayerContext } from './layers.ts';
import { fbmField } from './noise.ts';
import type { Rgb } from './palette.ts';

/**
 * "abstract": flowing, domain-warped colour fields mapped through the palette as a gradient, with
 * contour ribbons and relief shading; "geometric" adds a few bold poster shapes on top.
 */
export function paintAbstract(ctx: LayerContext): void {
  const { canvas, plan, palette, noise, rng } = ctx;
  if (!plan.abstract) return;
  const { width: w, height: h, data: d } = canvas;
  const scale = Math.max(w, h) * rng.range(0.35, 0.55);
  const cell = 4;
  const warpA = fbmField(noise, w, h, { scale, octaves: 3, cell, offsetX: 11, offsetY: 3 });
  const warpB = fbmField(noise, w, h, { scale, octaves: 3, cell, offsetX: 71, offsetY: 29 });
  // The warped field itself, sampled on the same coarse grid.
  const gw = warpA.gw;
  const gh = warpA.gh;
  const vals = new Float32Array(gw * gh);
  const strength = rng.range(2.5, 4.5);
  const k = cell / scale;
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      const j = gy * gw + gx;
      vals[j] = noise.fbm(gx * k + strength * warpA.values[j]!, gy * k + strength * warpB.values[j]! + 5, 4);
    }
  const stops: Rgb[] = [
    palette.skyTop,
    palette.accents[2],
    palette.skyMid,
    palette.accents[0],
    palette.glow,
    palette.land[1],
  ];
  const lut = gradientLut(stops, 256);
  // Facets (geometric) read best over a smooth field: no ribbons or relief under them.
  const smooth = plan.minimal || plan.texture === 'geometric';
  const ribbons = smooth ? 0 : rng.range(5, 9);
  const light = smooth ? 0 : 0.9;
  for (let y = 0; y < h; y++) {
    let i = y * w * 3;
    const gyf = y / cell;
    for (let x = 0; x < w; x++, i += 3) {
      const gxf = x / cell;
      const v = sampleGrid(vals, gw, gh, gxf, gyf);
      let t = smoothstep(0.28, 0.72, v);
      if (plan.minimal) t = Math.floor(t * 5) / 4;
      const li = Math.min(255, (t * 255) | 0) * 3;
      let r = lut[li]!;
      let g = lut[li + 1]!;
      let b = lut[li + 2]!;
      if (ribbons) {
        // Relief: light from the upper left on the field's slope, plus thin contour ribbons.
        // Central difference over two grid cells: smooth slopes, no grid pattern.
        const dv =
          (sampleGrid(vals, gw, gh, gxf + 1, gyf + 1) -
            sampleGrid(vals, gw, gh, Math.max(0, gxf - 1), Math.max(0, gyf - 1))) *
          14 *
          light;
        const rib = 1 - smoothstep(0, 0.08, Math.abs(((v * ribbons) % 1) - 0.5) - 0.38);
        const raw = 1 + dv - rib * 0.1;
        const shade = raw < 0.72 ? 0.72 : raw > 1.3 ? 1.3 : raw;
        r *= shade;
        g *= shade;
        b *= shade;
      }
      d[i] = r;
      d[i + 1] = g;
      d[i + 2] = b;
    }
  }
}

/** Bold poster shapes (circles, triangles, half discs) for geometric abstracts, painted after facets. */
export function paintPosterShapes(canvas: Canvas, { palette, rng, plan }: LayerContext): void {
  if (!plan.abstract) return;
  const { width: w, height: h, data: d } = canvas;
  const m = Math.min(w, h);
  const count = rng.int(3, 5);
  for (let s = 0; s < count; s++) {
    const c = rng.pick([
      palette.accents[0],
      palette.accents[1],
      palette.accents[2],
      palette.ink,
      palette.glow,
    ]);
    const cx = rng.range(0.15, 0.85) * w;
    const cy = rng.range(0.15, 0.85) * h;
    const r = rng.range(0.12, 0.3) * m;
    const kind = rng.int(0, 2);
    const rot = rng.next() * Math.PI * 2;
    const a = 0.8 * plan.presence;
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(h, cy + r); y++)
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(w, cx + r); x++) {
        const dx = x - cx;
        const dy = y - cy;
        let sd: number;
        if (kind === 0) sd = Math.hypot(dx, dy) - r;
        else if (kind === 1) {
          // Equilateral triangle, rotated.
          const px = dx * Math.cos(rot) - dy * Math.sin(rot);
          const py = dx * Math.sin(rot) + dy * Math.cos(rot);
          sd = Math.max(Math.abs(px) * 0.866 + py * 0.5, -py) - r * 0.5;
        } else {
          // Half disc (a poster "sun").
          const px = dx * Math.cos(rot) - dy * Math.sin(rot);
          sd = Math.max(Math.hypot(dx, dy) - r, -px);
        }
        const cover = sd < -0.5 ? 1 : sd > 0.5 ? 0 : 0.5 - sd;
        if (cover > 0) blend(d, (y * w + x) * 3, c, cover * a);
      }
  }
}

function gradientLut(stops: Rgb[], n: number): Float32Array {
  const lut = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    const t = (i / (n - 1)) * (stops.length - 1);
    const k = Math.min(stops.length - 2, Math.floor(t));
    const f = smoothstep(0, 1, t - k);
    const a = stops[k]!;
    const b = stops[k + 1]!;
    lut[i * 3] = a[0] + (b[0] - a[0]) * f;
    lut[i * 3 + 1] = a[1] + (b[1] - a[1]) * f;
    lut[i * 3 + 2] = a[2] + (b[2] - a[2]) * f;
  }
  return lut;
}

function sampleGrid(v: Float32Array, gw: number, gh: number, gx: number, gy: number): number {
  if (gx > gw - 1.001) gx = gw - 1.001;
  if (gy > gh - 1.001) gy = gh - 1.001;
  const x0 = gx | 0;
  const y0 = gy | 0;
  const tx = gx - x0;
  const ty = gy - y0;
  const i = y0 * gw + x0;
  const a = v[i]! + (v[i + 1]! - v[i]!) * tx;
  const b = v[i + gw]! + (v[i + gw + 1]! - v[i + gw]!) * tx;
  return a + (b - a) * ty;
}
