import { createRng } from './random.ts';

/**
 * Seeded value noise and fractal sums, evaluated onto coarse grids and sampled bilinearly: the
 * expensive part runs on a grid a fraction of the canvas size, which keeps a 1024² render fast.
 */

export class ValueNoise {
  private readonly table = new Float32Array(256);
  private readonly perm = new Uint8Array(512);

  constructor(seed: number) {
    const rng = createRng(seed);
    for (let i = 0; i < 256; i++) {
      this.table[i] = rng.next();
      this.perm[i] = i;
    }
    for (let i = 255; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      const t = this.perm[i]!;
      this.perm[i] = this.perm[j]!;
      this.perm[j] = t;
    }
    for (let i = 0; i < 256; i++) this.perm[i + 256] = this.perm[i]!;
  }

  /** Smooth noise in [0, 1). */
  at(x: number, y: number): number {
    const xf = Math.floor(x);
    const yf = Math.floor(y);
    const tx = x - xf;
    const ty = y - yf;
    const xi = xf & 255;
    const yi = yf & 255;
    const p = this.perm;
    const t = this.table;
    const a = p[xi]! + yi;
    const b = p[xi + 1]! + yi;
    const v00 = t[p[a]!]!;
    const v10 = t[p[b]!]!;
    const v01 = t[p[a + 1]!]!;
    const v11 = t[p[b + 1]!]!;
    const sx = tx * tx * (3 - 2 * tx);
    const sy = ty * ty * (3 - 2 * ty);
    const top = v00 + (v10 - v00) * sx;
    const bottom = v01 + (v11 - v01) * sx;
    return top + (bottom - top) * sy;
  }

  /** Fractal sum of `octaves` layers, normalised to [0, 1). */
  fbm(x: number, y: number, octaves: number): number {
    let sum = 0;
    let amp = 0.5;
    let norm = 0;
    let fx = x;
    let fy = y;
    for (let o = 0; o < octaves; o++) {
      sum += amp * this.at(fx, fy);
      norm += amp;
      amp *= 0.5;
      fx = fx * 2.03 + 17.1;
      fy = fy * 2.03 + 31.7;
    }
    return sum / norm;
  }
}

/** A scalar field stored on a coarse grid covering a canvas, sampled bilinearly in canvas pixels. */
export class Field {
  constructor(
    readonly values: Float32Array,
    readonly gw: number,
    readonly gh: number,
    /** Canvas pixels per grid cell. */
    readonly cell: number,
  ) {}

  sample(x: number, y: number): number {
    let gx = x / this.cell;
    let gy = y / this.cell;
    if (gx < 0) gx = 0;
    if (gy < 0) gy = 0;
    if (gx > this.gw - 1.001) gx = this.gw - 1.001;
    if (gy > this.gh - 1.001) gy = this.gh - 1.001;
    const x0 = gx | 0;
    const y0 = gy | 0;
    const tx = gx - x0;
    const ty = gy - y0;
    const v = this.values;
    const i = y0 * this.gw + x0;
    const a = v[i]! + (v[i + 1]! - v[i]!) * tx;
    const b = v[i + this.gw]! + (v[i + this.gw + 1]! - v[i + this.gw]!) * tx;
    return a + (b - a) * ty;
  }
}

/**
 * Evaluates fbm noise onto a grid for a canvas of `width`×`height`. `scale` is the feature size in
 * canvas pixels; `cell` the grid spacing (smaller = finer detail, slower).
 */
export function fbmField(
  noise: ValueNoise,
  width: number,
  height: number,
  opts: {
    scale: number;
    octaves: number;
    cell: number;
    offsetX?: number;
    offsetY?: number;
    stretchX?: number;
  },
): Field {
  const gw = Math.ceil(width / opts.cell) + 2;
  const gh = Math.ceil(height / opts.cell) + 2;
  const values = new Float32Array(gw * gh);
  const k = opts.cell / opts.scale;
  const sx = k / (opts.stretchX ?? 1);
  const ox = opts.offsetX ?? 0;
  const oy = opts.offsetY ?? 0;
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) values[y * gw + x] = noise.fbm(x * sx + ox, y * k + oy, opts.octaves);
  }
  return new Field(values, gw, gh, opts.cell);
}
