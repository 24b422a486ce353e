/**
 * Placeholder, replaced by the local helper's branch (issue 12), which learns palette, tone curve,
 * texture and a cut-out subject. This one is small but honest: it averages each photo's dominant
 * colour and contrast into a StyleProfile the local engine applies.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { RunContext } from '../../text-to-image.ts';
import { ProviderError } from '../../text-to-image.ts';
import type { TrainerProvider, TrainingRequest, TrainingResult } from '../../trainer.ts';
import type { StyleProfile } from '../style-profile.ts';

/** A photo's channel deviation that counts as neutral contrast (sRGB 0..1). */
const NEUTRAL_DEVIATION = 0.22;

export class LocalTrainer implements TrainerProvider {
  readonly name = 'local' as const;
  readonly available = true;

  async train(request: TrainingRequest, ctx: RunContext): Promise<TrainingResult> {
    const requestId = `local-train-${createHash('sha256')
      .update(request.images.map((i) => createHash('sha256').update(i.bytes).digest('hex')).join())
      .digest('hex')
      .slice(0, 16)}`;
    await ctx.onSubmitted(requestId);
    const palette: StyleProfile['palette'] = [];
    let deviation = 0;
    for (const [index, image] of request.images.entries()) {
      if (ctx.signal.aborted)
        throw new ProviderError('training cancelled', 'cancelled', 'Training was cancelled.');
      const stats = await sharp(image.bytes).removeAlpha().stats();
      const { r, g, b } = stats.dominant;
      palette.push([r / 255, g / 255, b / 255]);
      deviation += stats.channels.slice(0, 3).reduce((sum, c) => sum + c.stdev / 255, 0) / 3;
      await ctx.onProgress({
        status: 'running',
        percent: Math.round(((index + 1) / request.images.length) * 100),
        message: `Read photo ${index + 1} of ${request.images.length}`,
      });
    }
    const mean = deviation / Math.max(1, request.images.length);
    const profile: StyleProfile = {
      palette,
      contrast: Math.min(1.5, Math.max(0.5, mean / NEUTRAL_DEVIATION)),
    };
    return {
      kind: 'model',
      requestId,
      weights: {
        bytes: Buffer.from(JSON.stringify(profile)),
        contentType: 'application/json',
        fileName: 'style-profile.json',
        generateWith: request.baseProviderModel,
      },
    };
  }

  /** Runs in-process and finishes quickly: nothing to ask a vendor to stop. */
  async cancel(): Promise<boolean> {
    return false;
  }
}
