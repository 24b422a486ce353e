import type { NSFWJS } from 'nsfwjs/core';
import { NUDITY_CLASSES, type ImageClassifier, type NudityScores } from './image-classifier.ts';
import { decodeRgb } from './rgb-pixels.ts';
import { tfjsRuntime } from './tfjs-runtime.ts';

/** MobileNetV2 takes 224×224 RGB; the image is squeezed to it whole, as the model was trained. */
const INPUT_SIDE = 224;

/**
 * The nsfwjs MobileNetV2 nudity classifier on tfjs. The model and its weights are the JavaScript
 * modules nsfwjs ships in its npm package (imported from disk, never fetched), loaded once per
 * process on first use: about 3.5 MB of weights and half a second.
 */
export class NsfwjsImageClassifier implements ImageClassifier {
  private model: Promise<NSFWJS> | undefined;

  private load(): Promise<NSFWJS> {
    this.model ??= (async () => {
      await tfjsRuntime();
      const [{ load }, { MobileNetV2Model }] = await Promise.all([
        import('nsfwjs/core'),
        import('nsfwjs/models/mobilenet_v2'),
      ]);
      return load('MobileNetV2', { modelDefinitions: [MobileNetV2Model] });
    })();
    this.model.catch(() => (this.model = undefined));
    return this.model;
  }

  async classify(image: Buffer): Promise<NudityScores> {
    const [tf, model, pixels] = await Promise.all([
      tfjsRuntime(),
      this.load(),
      decodeRgb(image, { width: INPUT_SIDE, height: INPUT_SIDE, fit: 'fill' }),
    ]);
    const input = tf.tensor3d(pixels.data, [pixels.height, pixels.width, 3], 'int32');
    try {
      // nsfwjs's own classify runs its inference in tf.tidy and disposes the output itself.
      const predictions = await model.classify(input, NUDITY_CLASSES.length);
      const scores = Object.fromEntries(NUDITY_CLASSES.map((name) => [name, 0])) as NudityScores;
      for (const { className, probability } of predictions) scores[className] = probability;
      return scores;
    } finally {
      input.dispose();
    }
  }
}
