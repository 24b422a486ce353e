import sharp from 'sharp';
import type { RunResult, TextToImageProvider } from '../apps/server/src/adapters/providers/text-to-image.ts';

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
