import { kmeans, type Cluster } from './kmeans.ts';
import { oklabFromBytes } from './oklab.ts';

/**
 * Finds a photo's main subject without a neural network: a pixel belongs to the subject when its
 * colour is unlike every dominant colour of the photo's border (the background, in a typical product
 * or portrait shot) and it sits toward the centre. The saliency map is thresholded (Otsu), only the
 * largest connected region is kept, and its holes are filled. "Clear" means one compact region that
 * stands out from the background and does not run off the frame (the bottom edge aside: a person or
 * a vase may stand on it); busy or edge-to-edge photos are not.
 */

export interface SubjectMask {
  width: number;
  height: number;
  /** 255 inside the subject, 0 outside. */
  mask: Uint8Array;
  /** How well the subject stands out, 0..1. */
  clarity: number;
  clear: boolean;
  /** The subject reaches the bottom edge (a bust, something standing on the frame): keep it there. */
  grounded: boolean;
  /** Bounding box of the subject in pixels (inclusive). */
  box: { x0: number; y0: number; x1: number; y1: number };
}

/** Oklab distance below which a pixel reads as the background colour even if saliency is high. */
const MIN_COLOUR_DISTANCE = 0.05;
const MIN_AREA = 0.03;
const MAX_AREA = 0.65;
/** Share of the top, left and right edges' pixels the subject may cover and still count as inside the picture. */
const MAX_EDGE_CONTACT = 0.1;
const MIN_CLARITY = 0.5;

export function findSubject(rgb: Buffer, width: number, height: number): SubjectMask | null {
  const n = width * height;
  const lab = new Float32Array(n * 3);
  for (let p = 0; p < n; p++) oklabFromBytes(rgb[p * 3]!, rgb[p * 3 + 1]!, rgb[p * 3 + 2]!, lab, p * 3);

  // The background: the dominant colours of a band around the frame. A colour that is rare on the
  // top, left and right sides is the subject entering the band (shoulders or a stem cut by the bottom
  // edge, an arm at a side), not background.
  const band = Math.max(2, Math.round(Math.min(width, height) * 0.06));
  const border: number[] = [];
  const sides: boolean[] = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (x >= band && x < width - band && y >= band && y < height - band) continue;
      const p = y * width + x;
      border.push(lab[p * 3]!, lab[p * 3 + 1]!, lab[p * 3 + 2]!);
      sides.push(x < band || x >= width - band || y < band);
    }
  const clusters = kmeans(Float32Array.from(border), 4, 8);
  const onSides = new Float64Array(clusters.length);
  let sideCount = 0;
  sides.forEach((side, i) => {
    if (!side) return;
    sideCount++;
    onSides[nearestCluster(border, i, clusters)]!++;
  });
  const background = clusters.filter((c, i) => c.weight >= 0.05 && onSides[i]! / sideCount >= 0.1);

  const distance = new Float32Array(n);
  const saliency = new Float32Array(n);
  let max = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      let d = Infinity;
      for (const { centre } of background) {
        const dl = lab[p * 3]! - centre[0];
        const da = lab[p * 3 + 1]! - centre[1];
        const db = lab[p * 3 + 2]! - centre[2];
        d = Math.min(d, Math.sqrt(dl * dl + da * da + db * db));
      }
      const dx = (x + 0.5) / width - 0.5;
      const dy = (y + 0.5) / height - 0.5;
      // Centre prior: a subject is usually framed near the middle.
      const prior = Math.exp(-(dx * dx + dy * dy) / (2 * 0.3 * 0.3));
      distance[p] = d;
      saliency[p] = d * (0.3 + 0.7 * prior);
      if (saliency[p]! > max) max = saliency[p]!;
    }
  if (max === 0) return null;

  const threshold = otsu(saliency, max);
  let mask: Uint8Array<ArrayBuffer> = new Uint8Array(n);
  for (let p = 0; p < n; p++)
    mask[p] = saliency[p]! >= threshold && distance[p]! >= MIN_COLOUR_DISTANCE ? 255 : 0;
  mask = largestComponent(mask, width, height);
  fillHoles(mask, width, height);

  let area = 0;
  let inside = 0;
  let outside = 0;
  let edge = 0;
  const box = { x0: width, y0: height, x1: -1, y1: -1 };
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      if (mask[p] === 0) {
        outside += distance[p]!;
        continue;
      }
      area++;
      inside += distance[p]!;
      if (x === 0 || y === 0 || x === width - 1) edge++;
      box.x0 = Math.min(box.x0, x);
      box.x1 = Math.max(box.x1, x);
      box.y0 = Math.min(box.y0, y);
      box.y1 = Math.max(box.y1, y);
    }
  if (area === 0 || area === n) return null;
  const meanIn = inside / area;
  const meanOut = outside / (n - area);
  const clarity = Math.max(0, (meanIn - meanOut) / (meanIn + 1e-6));
  const share = area / n;
  const contact = edge / (width + 2 * height - 2);
  // A region running from one side of the frame to the other is a band of background, not a subject.
  const spans = (box.x0 === 0 && box.x1 === width - 1) || (box.y0 === 0 && box.y1 === height - 1);
  const clear =
    !spans && share >= MIN_AREA && share <= MAX_AREA && contact <= MAX_EDGE_CONTACT && clarity >= MIN_CLARITY;
  const grounded = box.y1 === height - 1;
  return { width, height, mask, clarity: clarity * (1 - contact), clear, grounded, box };
}

function nearestCluster(points: number[], i: number, clusters: Cluster[]): number {
  let best = 0;
  let bestD = Infinity;
  clusters.forEach(({ centre }, c) => {
    const d =
      (points[i * 3]! - centre[0]) ** 2 +
      (points[i * 3 + 1]! - centre[1]) ** 2 +
      (points[i * 3 + 2]! - centre[2]) ** 2;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  });
  return best;
}

/** Otsu's threshold over a 256-bin histogram of `values` in 0..max. */
function otsu(values: Float32Array, max: number): number {
  const bins = new Float64Array(256);
  for (const v of values) bins[Math.min(255, Math.floor((v / max) * 256))]!++;
  const total = values.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i++) sumAll += i * bins[i]!;
  let weightBelow = 0;
  let sumBelow = 0;
  let best = 0;
  let bestVariance = -1;
  for (let i = 0; i < 256; i++) {
    weightBelow += bins[i]!;
    if (weightBelow === 0) continue;
    const weightAbove = total - weightBelow;
    if (weightAbove === 0) break;
    sumBelow += i * bins[i]!;
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sumAll - sumBelow) / weightAbove;
    const variance = weightBelow * weightAbove * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = i;
    }
  }
  return ((best + 1) / 256) * max;
}

/** Keeps only the largest 4-connected region of set pixels. */
function largestComponent(mask: Uint8Array, width: number, height: number): Uint8Array<ArrayBuffer> {
  const label = new Int32Array(mask.length);
  const queue = new Int32Array(mask.length);
  let bestLabel = 0;
  let bestSize = 0;
  let next = 0;
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] === 0 || label[start] !== 0) continue;
    next++;
    const size = flood(start, label, queue, width, height, (p) => mask[p] !== 0 && label[p] === 0, next);
    if (size > bestSize) {
      bestSize = size;
      bestLabel = next;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let p = 0; p < mask.length; p++) if (label[p] === bestLabel && bestLabel > 0) out[p] = 255;
  return out;
}

/** Sets every unset pixel that the frame's edge cannot reach through unset pixels. */
function fillHoles(mask: Uint8Array, width: number, height: number): void {
  const reached = new Int32Array(mask.length);
  const queue = new Int32Array(mask.length);
  const open = (p: number) => mask[p] === 0 && reached[p] === 0;
  for (let x = 0; x < width; x++) {
    for (const p of [x, (height - 1) * width + x])
      if (open(p)) flood(p, reached, queue, width, height, open, 1);
  }
  for (let y = 0; y < height; y++) {
    for (const p of [y * width, y * width + width - 1])
      if (open(p)) flood(p, reached, queue, width, height, open, 1);
  }
  for (let p = 0; p < mask.length; p++) if (mask[p] === 0 && reached[p] === 0) mask[p] = 255;
}

/** Breadth-first 4-connected fill from `start` over pixels `accept` allows; returns the count. */
function flood(
  start: number,
  label: Int32Array,
  queue: Int32Array,
  width: number,
  height: number,
  accept: (p: number) => boolean,
  value: number,
): number {
  let head = 0;
  let tail = 0;
  label[start] = value;
  queue[tail++] = start;
  while (head < tail) {
    const p = queue[head++]!;
    const x = p % width;
    const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
    for (const q of neighbours) {
      if (q < 0 || q >= width * height || !accept(q)) continue;
      label[q] = value;
      queue[tail++] = q;
    }
  }
  return tail;
}
