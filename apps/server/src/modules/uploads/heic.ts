/**
 * HEIC/HEIF (HEVC-coded) decoding. The prebuilt sharp reads HEIF headers but has no HEVC decoder, so
 * the pixels come from heic-decode (libheif compiled to WebAssembly). That decoder works synchronously
 * for about a second per 12 megapixels, which would stall every other request on the event loop, so
 * each decode runs in its own worker thread (~85 ms to start), one at a time (the machine budget is
 * one core for image work, like sharp.concurrency(1)), and the worker's memory goes with it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface DecodedHeic {
  width: number;
  height: number;
  /** RGBA, 8 bits per channel, row-major; libheif has applied the file's rotation and mirroring. */
  rgba: Buffer;
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

const heicDecodePath = createRequire(import.meta.url).resolve('heic-decode');

// CommonJS, evaluated in the worker: the first top-level image, refused before decoding when its
// (already transformed) dimensions exceed the pixel limit.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const decode = require(workerData.modulePath);
(async () => {
  const images = await decode.all({ buffer: workerData.bytes });
  try {
    const first = images[0];
    if (!first) throw new Error('HEIF file has no image');
    if (first.width * first.height > workerData.maxPixels) {
      parentPort.postMessage({ tooLarge: true, width: first.width, height: first.height });
      return;
    }
    const { width, height, data } = await first.decode();
    parentPort.postMessage({ width, height, data }, [data.buffer]);
  } finally {
    images.dispose();
  }
})().catch((err) => parentPort.postMessage({ error: String((err && err.message) || err) }));
`;

type WorkerReply =
  | { tooLarge: true; width: number; height: number }
  | { width: number; height: number; data: Uint8ClampedArray }
  | { error: string };

let queue: Promise<unknown> = Promise.resolve();

function runWorker(bytes: Buffer, maxPixels: number): Promise<DecodedHeic> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { modulePath: heicDecodePath, bytes, maxPixels },
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
        else {
          const rgba = Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength);
          if (rgba.length !== reply.width * reply.height * 4)
            reject(new Error('HEIF decoder returned a short image'));
          else resolve({ width: reply.width, height: reply.height, rgba });
        }
      }),
    );
    worker.once('error', (err) => finish(() => reject(err)));
    worker.once('exit', (code) => finish(() => reject(new Error(`HEIF decoder stopped (exit ${code})`))));
  });
}

/** Decodes the first image of a HEIC/HEIF file off the main thread; one decode at a time. */
export function decodeHeic(bytes: Buffer, maxPixels: number): Promise<DecodedHeic> {
  const run = queue.then(() => runWorker(bytes, maxPixels));
  queue = run.catch(() => undefined);
  return run;
}
