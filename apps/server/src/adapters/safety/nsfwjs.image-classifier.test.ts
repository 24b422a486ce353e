import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalTextToImage } from '../providers/local/local.text-to-image.ts';
import { NUDITY_CLASSES, type NudityScores } from './image-classifier.ts';
import { NsfwjsImageClassifier } from './nsfwjs.image-classifier.ts';
import { tfjsRuntime } from './tfjs-runtime.ts';

/** A landscape the local engine paints: an ordinary picture with nothing sexual in it. */
async function landscape(): Promise<Buffer> {
  const { images } = await new LocalTextToImage().run(
    {
      providerModel: 'local/aurora',
      prompt: 'sunset over mountains and a lake',
      seed: 7,
      width: 1024,
      height: 1024,
      numImages: 1,
    },
    { signal: new AbortController().signal, onProgress: () => undefined, onSubmitted: () => undefined },
  );
  return images[0]!.bytes;
}

const top = (scores: NudityScores) =>
  NUDITY_CLASSES.reduce((best, name) => (scores[name] > scores[best] ? name : best));

describe('NsfwjsImageClassifier (the real MobileNetV2 model)', () => {
  const classifier = new NsfwjsImageClassifier();
  // Anything reaching for the network while the model loads or runs would show up here; the model
  // must come from the files the npm package ships.
  const globalFetch = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('no network in this test'));
  let platformFetch: ReturnType<typeof vi.spyOn>;
  let scores: NudityScores;

  beforeAll(async () => {
    const tf = await tfjsRuntime();
    platformFetch = vi.spyOn(tf.env().platform, 'fetch').mockRejectedValue(new Error('no network'));
    scores = await classifier.classify(await landscape());
  });
  afterAll(() => vi.restoreAllMocks());

  it('loads from the package without any network request', () => {
    expect(globalFetch).not.toHaveBeenCalled();
    expect(platformFetch).not.toHaveBeenCalled();
  });

  it('gives a probability for each of the five classes, summing to 1', () => {
    expect(Object.keys(scores).sort()).toEqual([...NUDITY_CLASSES].sort());
    for (const name of NUDITY_CLASSES) {
      expect(scores[name]).toBeGreaterThanOrEqual(0);
      expect(scores[name]).toBeLessThanOrEqual(1);
    }
    const sum = NUDITY_CLASSES.reduce((total, name) => total + scores[name], 0);
    expect(Math.abs(sum - 1)).toBeLessThan(1e-4);
  });

  it('scores a plain landscape as a drawing or neutral, far from porn', () => {
    expect(['Drawing', 'Neutral']).toContain(top(scores));
    expect(scores.Porn + scores.Hentai + scores.Sexy).toBeLessThan(0.2);
  });

  it('scores the same image the same way again, leaving no tensors behind', async () => {
    const tf = await tfjsRuntime();
    const image = await landscape();
    await classifier.classify(image);
    const tensors = tf.memory().numTensors;
    const again = await classifier.classify(image);
    expect(tf.memory().numTensors).toBe(tensors);
    for (const name of NUDITY_CLASSES) expect(again[name]).toBeCloseTo(scores[name], 5);
  });

  it('reads any format sharp reads, transparency included', async () => {
    const webp = await sharp(await landscape())
      .ensureAlpha(0.5)
      .webp()
      .toBuffer();
    const result = await classifier.classify(webp);
    expect(Math.abs(NUDITY_CLASSES.reduce((t, n) => t + result[n], 0) - 1)).toBeLessThan(1e-4);
  });

  it('rejects bytes that are not an image', async () => {
    await expect(classifier.classify(Buffer.from('not an image'))).rejects.toThrow();
  });
});
