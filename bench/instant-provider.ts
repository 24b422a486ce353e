import sharp from 'sharp';
import {
  ProviderError,
  type RunResult,
  type TextToImageProvider,
} from '../apps/server/src/adapters/providers/text-to-image.ts';

export const OUTPUT_SIDE = 256;

const png = await sharp({
  create: { width: OUTPUT_SIDE, height: OUTPUT_SIDE, channels: 3, background: '#3366ff' },
})
  .png()
  .toBuffer();

/**
 * Answers at once with the same small PNG: the provider costs nothing, the pipeline everything.
 * Injected through createContainer's constructor argument in place of the local engine.
 */
export class InstantProvider implements TextToImageProvider {
  readonly name = 'local' as const;
  readonly available = true;
  async run(request: { seed: number; numImages: number }): Promise<RunResult> {
    return {
      images: Array.from({ length: request.numImages }, () => ({
        bytes: png,
        contentType: 'image/png',
        width: OUTPUT_SIDE,
        height: OUTPUT_SIDE,
      })),
      seed: request.seed,
      requestId: `instant-${Math.random().toString(36).slice(2)}`,
    };
  }
  async cancel() {
    return false;
  }
}

/**
 * A vendor that fails at once with a temporary problem (the failover bench's first vendor): what the
 * pipeline then spends moving the job to the model's alternate is ours to measure.
 */
export class FailingProvider implements TextToImageProvider {
  readonly available = true;
  constructor(readonly name: 'fal' | 'replicate') {}
  async run(): Promise<RunResult> {
    throw new ProviderError(
      `${this.name}: 503 (bench)`,
      'transient',
      'The provider had a temporary problem.',
    );
  }
  async cancel() {
    return false;
  }
}
