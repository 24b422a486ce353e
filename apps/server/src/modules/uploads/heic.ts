/**
 * HEIC/HEIF (HEVC-coded) decoding. The prebuilt sharp reads HEIF headers but has no HEVC decoder, so
 * the pixels come from libheif compiled to WebAssembly (libheif-js). That decoder works synchronously
 * for about a second per 12 megapixels, which would stall every other request on the event loop, so
 * each decode runs in its own worker thread (~85 ms to start), one at a time (the machine budget is
 * one core for image work, like sharp.concurrency(1)).
 *
 * Memory: the worker also encodes the result (sharp, reading the decoder's pixels in place in the
 * WebAssembly memory), so only the encoded image crosses to the main thread, and everything the
 * decode used (~9 bytes per pixel measured, mostly the WebAssembly heap) goes with the worker when it
 * ends. Handing raw RGBA to the main thread instead cost ~13 bytes per pixel: the pixels copied out of
 * the WebAssembly memory, then kept on the main thread until the garbage collector ran, seconds later.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface ConvertedHeic {
  width: number;
  height: number;
  /** Upright (libheif applies the file's rotation and mirroring), no metadata. */
  bytes: Buffer;
  /** PNG when some pixel is see-through, JPEG otherwise. */
  contentType: 'image/jpeg' | 'image/png';
}

export interface HeicEncoding {
  /** sharp's JPEG options for opaque images. */
  jpeg: { quality: number; optimiseCoding: boolean };
}

export class HeicTooLargeError extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`HEIF image is ${width}×${height}`);
    this.name = 'HeicTooLargeError';
  }
}

const resolve = createRequire(import.meta.url).resolve;
const modulePaths = { libheif: resolve('libheif-js/wasm-bundle'), sharp: resolve('sharp') };

// CommonJS, evaluated in the worker: the first top-level image, refused before decoding when its
// (already transformed) dimensions exceed the pixel limit, decoded to RGBA inside the WebAssembly
// memory and encoded from there by sharp.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const libheif = require(workerData.paths.libheif);
const sharp = require(workerData.paths.sharp);
(async () => {
  await libheif.ready;
  const decoder = new libheif.HeifDecoder();
  const images = decoder.decode(workerData.bytes);
  const first = images[0];
  if (!first) throw new Error('HEIF file has no image we can read');
  const width = first.get_width();
  const height = first.get_height();
  if (width * height > workerData.maxPixels) {
    parentPort.postMessage({ tooLarge: true, width, height });
    return;
  }
  const decoded = await libheif.heif_js_decode_image2(
    first.handle,
    libheif.heif_colorspace.heif_colorspace_RGB,
    libheif.heif_chroma.heif_chroma_interleaved_RGBA,
  );
  if (!decoded || decoded.code) throw new Error('HEIF image could not be decoded');
  const plane = decoded.channels.find((c) => c.id === libheif.heif_channel.heif_channel_interleaved);
  if (!plane || plane.width !== width || plane.height !== height) throw new Error('HEIF decoder returned a short image');
  // Rows padded past width × 4 bytes are packed first (a copy only in that case).
  let rgba = plane.data;
  if (plane.stride !== width * 4) {
    rgba = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) rgba.set(plane.data.subarray(y * plane.stride, y * plane.stride + width * 4), y * width * 4);
  }
  const raw = { raw: { width, height, channels: 4 } };
  let transparent = false;
  if (first.has_alpha_channel()) for (let i = 3; i < rgba.length && !transparent; i += 4) transparent = rgba[i] !== 255;
  const bytes = transparent
    ? await sharp(rgba, raw).png().toBuffer()
    : await sharp(rgba, raw).removeAlpha().jpeg(workerData.encoding.jpeg).toBuffer();
  parentPort.postMessage({ width, height, transparent, bytes }, [bytes.buffer]);
})().catch((err) => parentPort.postMessage({ error: String((err && err.message) || err) }));
`;

type WorkerReply =
  | { tooLarge: true; width: number; height: number }
  | { width: number; height: number; transparent: boolean; bytes: Uint8Array }
  | { error: string };

/**
 * The worker's JavaScript heap. The decoder's pixels live outside it (WebAssembly memory), so what
 * bounds those is the pixel limit checked before decoding (declared size in normalise.ts, transformed
 * size above) and one decode at a time; this stops a runaway parse.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

let queue: Promise<unknown> = Promise.resolve();

function runWorker(bytes: Buffer, maxPixels: number, encoding: HeicEncoding): Promise<ConvertedHeic> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { paths: modulePaths, bytes, maxPixels, encoding },
      resourceLimits: WORKER_LIMITS,
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.once('message', (reply: WorkerReply) =>
      finish(() => {
        if ('error' in reply) reject(new Error(reply.error));
        else if ('tooLarge' in reply) reject(new HeicTooLargeError(reply.width, reply.height));
        else
          resolve({
            width: reply.width,
            height: reply.height,
            bytes: Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength),
            contentType: reply.transparent ? 'image/png' : 'image/jpeg',
          });
      }),
    );
    worker.once('error', (err) => finish(() => reject(err)));
    worker.once('exit', (code) => finish(() => reject(new Error(`HEIF decoder stopped (exit ${code})`))));
  });
}

/**
 * Converts the first image of a HEIC/HEIF file to an upright JPEG (or PNG when see-through), off the
 * main thread; one at a time.
 */
export function convertHeic(
  bytes: Buffer,
  maxPixels: number,
  encoding: HeicEncoding,
): Promise<ConvertedHeic> {
  const run = queue.then(() => runWorker(bytes, maxPixels, encoding));
  queue = run.catch(() => undefined);
  return run;
}
