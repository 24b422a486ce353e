/**
 * What a training photo looks like, measured cheaply on a small copy: a perceptual hash (duplicates
 * are refused), two hints that do not refuse it (blurry, no clear subject), and its thumbnail. One
 * decode at ANALYSIS_SIDE px serves all of them (JPEG shrink-on-load makes it a fraction of a full
 * decode): a separate thumbnail decode cost as much again, ~100 ms of a 12-megapixel photo's ~200.
 */
import sharp from 'sharp';
// sharp's process-wide settings (one libvips thread per operation, no cache) live there too.
import { THUMBNAIL_MAX_SIDE, THUMBNAIL_WEBP } from '../../adapters/media/media.ts';
import { withDecodeSlot } from '../../adapters/media/decode-slots.ts';

const ANALYSIS_SIDE = 512;
/** pHash: a 32×32 DCT whose 8×8 lowest frequencies give 64 bits. */
const HASH_SIZE = 32;
const HASH_BITS_SIDE = 8;
/** Two photos whose hashes differ in at most this many bits are the same photo (re-saved, resized). */
export const DUPLICATE_DISTANCE = 4;

/**
 * Below this variance of the Laplacian (at 512 px) a photo has almost no sharp edges: in the tests'
 * generated photos, the sharp ones pass and a Gaussian blur of sigma 2 px falls under it.
 */
const BLURRY_BELOW = 60;
/** Below this standard deviation of brightness (0-255) the middle of the frame is plain: no subject there. */
const FLAT_CENTRE_BELOW = 12;

export const BLURRY_HINT =
  'Looks blurry: a sharp photo teaches the model more; use one in focus if you have it.';
export const NO_SUBJECT_HINT =
  'No clear subject: the middle of this photo is mostly plain; choose photos where the subject fills the frame.';

export interface PhotoSignals {
  /** 64-bit perceptual hash as 16 hex digits. */
  phash: string;
  hints: string[];
  /** WebP, at most THUMBNAIL_MAX_SIDE on its longer side, like every other thumbnail. */
  thumbnail: Buffer;
}

/**
 * The hash, hints and thumbnail of a normalised (upright) photo, in a decode slot like every other
 * decode, taking turns with other people's; it always waits, as the photo was already let in.
 */
export function photoSignals(bytes: Buffer, owner: string): Promise<PhotoSignals> {
  const turn = { owner, wait: 'always' } as const;
  return withDecodeSlot(async () => {
    const small = await sharp(bytes)
      .resize(ANALYSIS_SIDE, ANALYSIS_SIDE, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: small.info };
    const [thumbnail, { data, info }] = await Promise.all([
      sharp(small.data, raw)
        .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp(THUMBNAIL_WEBP)
        .toBuffer(),
      sharp(small.data, raw).greyscale().raw().toBuffer({ resolveWithObject: true }),
    ]);
    const grey = firstChannel(data, info.channels);
    const hashInput = await sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } })
      .resize(HASH_SIZE, HASH_SIZE, { fit: 'fill' })
      .raw()
      .toBuffer();
    const hints: string[] = [];
    if (laplacianVariance(grey, info.width, info.height) < BLURRY_BELOW) hints.push(BLURRY_HINT);
    if (centreDeviation(grey, info.width, info.height) < FLAT_CENTRE_BELOW) hints.push(NO_SUBJECT_HINT);
    return { phash: perceptualHash(firstChannel(hashInput, 1)), hints, thumbnail };
  }, turn);
}

function firstChannel(data: Buffer, channels: number): Uint8Array {
  if (channels === 1) return data;
  const out = new Uint8Array(data.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels]!;
  return out;
}

/** DCT-II basis, cos((2x+1)uπ/2N), for the 8 lowest frequencies over 32 samples. */
const basis = Array.from({ length: HASH_BITS_SIDE }, (_, u) =>
  Float64Array.from({ length: HASH_SIZE }, (_, x) => Math.cos(((2 * x + 1) * u * Math.PI) / (2 * HASH_SIZE))),
);

/** The 8×8 lowest DCT frequencies of a 32×32 image, each bit set where above their median (DC aside). */
export function perceptualHash(pixels: Uint8Array): string {
  // Rows first: 32 rows × 8 frequencies, then columns: 8 × 8.
  const rows = new Float64Array(HASH_SIZE * HASH_BITS_SIDE);
  for (let y = 0; y < HASH_SIZE; y++) {
    for (let u = 0; u < HASH_BITS_SIDE; u++) {
      let sum = 0;
      for (let x = 0; x < HASH_SIZE; x++) sum += pixels[y * HASH_SIZE + x]! * basis[u]![x]!;
      rows[y * HASH_BITS_SIDE + u] = sum;
    }
  }
  const coefficients = new Float64Array(HASH_BITS_SIDE * HASH_BITS_SIDE);
  for (let v = 0; v < HASH_BITS_SIDE; v++) {
    for (let u = 0; u < HASH_BITS_SIDE; u++) {
      let sum = 0;
      for (let y = 0; y < HASH_SIZE; y++) sum += rows[y * HASH_BITS_SIDE + u]! * basis[v]![y]!;
      coefficients[v * HASH_BITS_SIDE + u] = sum;
    }
  }
  // The DC term is the mean brightness, far larger than the rest: it would skew the median.
  const sorted = Array.from(coefficients.subarray(1)).sort((a, b) => a - b);
  const median = (sorted[31]! + sorted[32]!) / 2;
  let hash = 0n;
  for (let i = 0; i < coefficients.length; i++) {
    hash = (hash << 1n) | (coefficients[i]! > median ? 1n : 0n);
  }
  return hash.toString(16).padStart(16, '0');
}

/** Bits that differ between two hashes (16 hex digits each). */
export function hammingDistance(a: string, b: string): number {
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (diff > 0n) {
    count += Number(diff & 1n);
    diff >>= 1n;
  }
  return count;
}

/** Variance of the 4-neighbour Laplacian: how much fine edge detail there is. */
function laplacianVariance(grey: Uint8Array, width: number, height: number): number {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = 4 * grey[i]! - grey[i - 1]! - grey[i + 1]! - grey[i - width]! - grey[i + width]!;
      sum += lap;
      sumSq += lap * lap;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

/** Standard deviation of brightness over the middle half of the frame (each side), where a subject sits. */
function centreDeviation(grey: Uint8Array, width: number, height: number): number {
  const x0 = Math.floor(width / 4);
  const x1 = Math.ceil((width * 3) / 4);
  const y0 = Math.floor(height / 4);
  const y1 = Math.ceil((height * 3) / 4);
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const v = grey[y * width + x]!;
      sum += v;
      sumSq += v * v;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return Math.sqrt(Math.max(0, sumSq / n - mean * mean));
}
