import { createRequire } from 'node:module';
import path from 'node:path';
import type * as FaceApiModule from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import type { FaceBox, FaceDetection, FaceDetector } from './face-detector.ts';
import { decodeRgb } from './rgb-pixels.ts';
import { tfjsRuntime } from './tfjs-runtime.ts';

type FaceApi = typeof FaceApiModule;

/**
 * The detector sees the image at most this large on its longer side: sharp shrinks it first, which
 * costs less than handing tfjs a full-size photo, and the detector works at 416 anyway.
 */
const DECODE_MAX_SIDE = 640;
/** Tiny Face Detector's input grid (a multiple of 32); 416 finds faces down to about 1/20 of the side. */
const INPUT_SIZE = 416;
const MIN_SCORE = 0.5;

/**
 * Face detection with @vladmandic/face-api's Tiny Face Detector on tfjs. Its build for Node's
 * WebAssembly backend uses the same tfjs engine as the nudity classifier; the 190 KB model is read
 * from the `model/` folder the npm package ships, once per process, on first use.
 */
export class FaceApiFaceDetector implements FaceDetector {
  private api: Promise<FaceApi> | undefined;

  private load(): Promise<FaceApi> {
    this.api ??= (async () => {
      await tfjsRuntime();
      const faceapi = await import('@vladmandic/face-api/dist/face-api.node-wasm.js');
      const modelDir = path.join(
        path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
        'model',
      );
      await faceapi.nets.tinyFaceDetector.loadFromDisk(modelDir);
      return faceapi;
    })();
    this.api.catch(() => (this.api = undefined));
    return this.api;
  }

  async detect(image: Buffer): Promise<FaceDetection> {
    const [tf, faceapi, pixels] = await Promise.all([
      tfjsRuntime(),
      this.load(),
      decodeRgb(image, { width: DECODE_MAX_SIDE, height: DECODE_MAX_SIDE, fit: 'inside' }),
    ]);
    const input = tf.tensor3d(pixels.data, [pixels.height, pixels.width, 3], 'int32');
    try {
      const found = await faceapi.detectAllFaces(
        input,
        new faceapi.TinyFaceDetectorOptions({ inputSize: INPUT_SIZE, scoreThreshold: MIN_SCORE }),
      );
      // Boxes come in the pixels the detector saw; map them back onto the image as given.
      const sx = pixels.source.width / pixels.width;
      const sy = pixels.source.height / pixels.height;
      const faces: FaceBox[] = found.map(({ box, score }) => ({
        x: Math.round(box.x * sx),
        y: Math.round(box.y * sy),
        width: Math.round(box.width * sx),
        height: Math.round(box.height * sy),
        score,
      }));
      return { faces };
    } finally {
      input.dispose();
    }
  }
}
