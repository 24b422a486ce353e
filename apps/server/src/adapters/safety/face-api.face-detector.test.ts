import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FaceApiFaceDetector } from './face-api.face-detector.ts';
import { tfjsRuntime } from './tfjs-runtime.ts';

/**
 * A 1920×1280 photo of three people, one of the demo images @vladmandic/face-api ships in its npm
 * package (MIT). It is read from the installed package, not copied into this repository.
 */
const threePeople = () =>
  readFile(
    path.join(
      path.dirname(createRequire(import.meta.url).resolve('@vladmandic/face-api/package.json')),
      'demo/sample1.jpg',
    ),
  );

/** A photo-sized picture with no one in it: gradients and shapes. */
const noOne = () =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768">
        <defs><linearGradient id="sky" x2="0" y2="1"><stop offset="0" stop-color="#4af"/><stop offset="1" stop-color="#fd9"/></linearGradient></defs>
        <rect width="1024" height="768" fill="url(#sky)"/>
        <path d="M0 600 L300 300 L520 560 L760 260 L1024 600 V768 H0 Z" fill="#354"/>
        <circle cx="820" cy="160" r="70" fill="#ffd"/>
      </svg>`,
    ),
  )
    .jpeg()
    .toBuffer();

describe('FaceApiFaceDetector (the real Tiny Face Detector model)', () => {
  const detector = new FaceApiFaceDetector();
  const globalFetch = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('no network in this test'));
  let platformFetch: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    const tf = await tfjsRuntime();
    platformFetch = vi.spyOn(tf.env().platform, 'fetch').mockRejectedValue(new Error('no network'));
  });
  afterAll(() => vi.restoreAllMocks());

  it('finds the three faces in a photo of three people, with boxes on the photo as given', async () => {
    const { faces } = await detector.detect(await threePeople());
    expect(faces).toHaveLength(3);
    for (const face of faces) {
      expect(face.score).toBeGreaterThanOrEqual(0.5);
      expect(face.score).toBeLessThanOrEqual(1);
      expect(face.x).toBeGreaterThanOrEqual(0);
      expect(face.y).toBeGreaterThanOrEqual(0);
      expect(face.x + face.width).toBeLessThanOrEqual(1920 + 1);
      expect(face.y + face.height).toBeLessThanOrEqual(1280 + 1);
      // A face in a group photo: neither a speck nor the whole frame.
      expect(face.width).toBeGreaterThan(50);
      expect(face.width).toBeLessThan(600);
    }
    // All three stand in the upper half of the frame.
    for (const face of faces) expect(face.y + face.height / 2).toBeLessThan(640);
  });

  it('finds no face in a picture with no one in it', async () => {
    expect((await detector.detect(await noOne())).faces).toEqual([]);
  });

  it('applies EXIF orientation: a photo stored sideways is seen upright, boxes in its upright frame', async () => {
    // Stored 90° anticlockwise with orientation 6 ("rotate 90° clockwise to view").
    const sideways = await sharp(await threePeople())
      .rotate(-90)
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const { faces } = await detector.detect(sideways);
    expect(faces).toHaveLength(3);
    for (const face of faces) expect(face.x + face.width).toBeLessThanOrEqual(1920 + 1);
  });

  it('loads from the package without any network request, and leaves no tensors behind', async () => {
    const tf = await tfjsRuntime();
    const image = await noOne();
    await detector.detect(image);
    const tensors = tf.memory().numTensors;
    await detector.detect(image);
    expect(tf.memory().numTensors).toBe(tensors);
    expect(globalFetch).not.toHaveBeenCalled();
    expect(platformFetch).not.toHaveBeenCalled();
  });

  it('rejects bytes that are not an image', async () => {
    await expect(detector.detect(Buffer.from('not an image'))).rejects.toThrow();
  });
});
