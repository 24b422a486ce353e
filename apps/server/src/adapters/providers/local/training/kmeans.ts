import { createRng } from '../random.ts';

/**
 * k-means over 3-D points (Oklab colours), seeded with k-means++ from a fixed seed so the same photos
 * always give the same palette. Used for the style's palette and for the border colours the subject
 * cut-out compares against.
 */

export interface Cluster {
  centre: [number, number, number];
  /** Share of the points nearest this centre (0..1). */
  weight: number;
}

/** `points` holds `n` triples. Empty clusters are dropped, so fewer than `k` may come back. */
export function kmeans(points: Float32Array, k: number, iterations = 12, seed = 0x5eed): Cluster[] {
  const n = Math.floor(points.length / 3);
  if (n === 0) return [];
  const rng = createRng(seed);
  const centres = new Float64Array(k * 3);
  const nearest = new Float64Array(n).fill(Infinity);
  let chosen = rng.int(0, n - 1);
  let count = 0;
  for (; count < k; count++) {
    centres.set(points.subarray(chosen * 3, chosen * 3 + 3), count * 3);
    let total = 0;
    for (let p = 0; p < n; p++) {
      const d = distance2(points, p, centres, count);
      if (d < nearest[p]!) nearest[p] = d;
      total += nearest[p]!;
    }
    if (total === 0) {
      count++;
      break;
    }
    // k-means++: the next centre is drawn with probability proportional to squared distance.
    let target = rng.next() * total;
    chosen = n - 1;
    for (let p = 0; p < n; p++) {
      target -= nearest[p]!;
      if (target <= 0) {
        chosen = p;
        break;
      }
    }
  }
  const label = new Int32Array(n);
  const sums = new Float64Array(count * 3);
  const sizes = new Float64Array(count);
  for (let it = 0; it < iterations; it++) {
    sums.fill(0);
    sizes.fill(0);
    let moved = false;
    for (let p = 0; p < n; p++) {
      let best = 0;
      let bestD = Infinity;
      for (let c = 0; c < count; c++) {
        const d = distance2(points, p, centres, c);
        if (d < bestD) {
          bestD = d;
          best = c;
        }
      }
      if (label[p] !== best) moved = true;
      label[p] = best;
      sizes[best]!++;
      for (let j = 0; j < 3; j++) sums[best * 3 + j]! += points[p * 3 + j]!;
    }
    for (let c = 0; c < count; c++) {
      if (sizes[c] === 0) continue;
      for (let j = 0; j < 3; j++) centres[c * 3 + j] = sums[c * 3 + j]! / sizes[c]!;
    }
    if (!moved && it > 0) break;
  }
  const clusters: Cluster[] = [];
  for (let c = 0; c < count; c++) {
    if (sizes[c] === 0) continue;
    clusters.push({
      centre: [centres[c * 3]!, centres[c * 3 + 1]!, centres[c * 3 + 2]!],
      weight: sizes[c]! / n,
    });
  }
  return clusters.sort((a, b) => b.weight - a.weight);
}

function distance2(points: Float32Array, p: number, centres: Float64Array, c: number): number {
  const dx = points[p * 3]! - centres[c * 3]!;
  const dy = points[p * 3 + 1]! - centres[c * 3 + 1]!;
  const dz = points[p * 3 + 2]! - centres[c * 3 + 2]!;
  return dx * dx + dy * dy + dz * dz;
}
