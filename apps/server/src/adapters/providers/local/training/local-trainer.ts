import { randomUUID } from 'node:crypto';
// sharp's process-wide settings (one libvips thread per operation, no cache) live there.
import '../../../media/media.ts';
import { ProviderError, type RunContext } from '../../text-to-image.ts';
import type { TrainerProvider, TrainingRequest, TrainingResult } from '../../trainer.ts';
import {
  serializeStyleProfile,
  TONE_CURVE_POINTS,
  type StyleProfile,
  type StyleSubject,
} from '../style-profile.ts';
import { kmeans } from './kmeans.ts';
import { srgbFromOklab } from './oklab.ts';
import {
  measureColour,
  measureTexture,
  type ColourStatistics,
  type TextureStatistics,
} from './photo-statistics.ts';
import { readPixels, shrinkPixels } from './read-photo.ts';
import { cutOutSubject } from './subject-cutout.ts';
import { findSubject } from './subject-mask.ts';

/**
 * The local trainer: Lumina's offline default for "train your own model". It is not AI training (no
 * neural network, no weights): it measures what can be measured from the photos (their palette, tone
 * curve, contrast, saturation, grain and edge detail, and the subject of the most typical photo cut
 * out of its background) into a style profile (style-profile.ts) that the local engine applies, with
 * lora_scale setting how strongly. Photos are decoded one at a time at a reduced size, so memory stays
 * flat whatever their resolution. `steps` does not change the result: there is nothing to iterate.
 */

export const LOCAL_TRAINER_MODEL = 'local/style-trainer';

/** Long side the photos are decoded at for texture: grain is measured near the scale it is rendered at. */
const TEXTURE_SIDE = 1024;
/** Long side for colour, tone and the subject search: plenty for statistics, cheap per pixel. */
const STATS_SIDE = 192;
const PALETTE_SIZE = 6;
/**
 * Luminance standard deviation and mean HSV saturation of an ordinary, well-exposed photo: the
 * profile's contrast and saturation are relative to these (1 = like most photos).
 */
const NEUTRAL_CONTRAST = 0.22;
const NEUTRAL_SATURATION = 0.3;

/** Share of the job's progress when each stage starts; reading the photos takes most of it. */
const READING_START = 2;
const READING_END = 80;

interface PhotoFacts {
  colour: ColourStatistics;
  texture: TextureStatistics;
  /** How clearly the photo shows one subject (0 when it does not). */
  subjectClarity: number;
}

export class LocalTrainer implements TrainerProvider {
  readonly name = 'local' as const;
  readonly available = true;

  async train(request: TrainingRequest, ctx: RunContext): Promise<TrainingResult> {
    if (request.providerModel !== LOCAL_TRAINER_MODEL) {
      throw rejected(
        `unknown local trainer ${request.providerModel}`,
        `The local trainer is "${LOCAL_TRAINER_MODEL}".`,
      );
    }
    const n = request.images.length;
    if (n === 0) throw rejected('no photos', 'Add photos to the training set first.');
    throwIfAborted(ctx.signal);
    // Nothing runs remotely, so a resumed job starts over under the id it already stored.
    const requestId = ctx.resumeRequestId ?? `local-train-${randomUUID()}`;
    await ctx.onSubmitted(requestId);
    const step = async (percent: number, message: string) => {
      throwIfAborted(ctx.signal);
      await ctx.onProgress({ status: 'running', percent: Math.round(percent), message });
      // Let timers and I/O (an abort, a progress write) run between CPU-bound stages.
      await new Promise<void>((resolve) => setImmediate(resolve));
      throwIfAborted(ctx.signal);
    };

    await step(0, 'Starting the local style trainer (no neural network: it measures your photos)');
    const facts: PhotoFacts[] = [];
    for (const [i, image] of request.images.entries()) {
      await step(READING_START + ((READING_END - READING_START) * i) / n, `Reading photo ${i + 1} of ${n}`);
      facts.push(await readFacts(image.bytes, i, request.subject !== 'style'));
    }

    await step(READING_END + 2, 'Learning the palette');
    const samples = concat(facts.map((f) => f.colour.samples));
    const clusters = kmeans(samples, PALETTE_SIZE, 15);

    await step(88, 'Learning the tone curve');
    const toneCurve = learnToneCurve(facts.map((f) => f.colour.histogram));
    const contrast = clamp(mean(facts.map((f) => f.colour.contrast)) / NEUTRAL_CONTRAST, 0.5, 1.5);
    const saturation = clamp(mean(facts.map((f) => f.colour.saturation)) / NEUTRAL_SATURATION, 0, 2);

    await step(90, 'Measuring texture');
    // The median, so one noisy night shot does not decide the grain of the whole style.
    const texture = {
      grain: round(median(facts.map((f) => f.texture.grain))),
      detail: round(median(facts.map((f) => f.texture.detail))),
    };

    let subject: StyleSubject | null = null;
    const chosen = representative(facts);
    if (chosen !== undefined) {
      await step(92, 'Cutting out the subject');
      subject = await cutOutSubject(request.images[chosen]!.bytes);
    }

    await step(98, 'Writing the style profile');
    const profile: StyleProfile = {
      palette: clusters.map((c) => srgbFromOklab(...c.centre)),
      weights: clusters.map((c) => round(c.weight)),
      contrast: round(contrast),
      saturation: round(saturation),
      toneCurve,
      texture,
      subject,
    };
    await step(100, 'Style profile ready');
    return {
      kind: 'model',
      requestId,
      weights: {
        bytes: serializeStyleProfile(profile),
        contentType: 'application/json',
        fileName: 'style-profile.json',
        generateWith: request.baseProviderModel,
      },
    };
  }

  /** Local training is stopped through the job's signal; there is nothing remote to cancel. */
  async cancel(): Promise<boolean> {
    return false;
  }
}

async function readFacts(bytes: Buffer, index: number, lookForSubject: boolean): Promise<PhotoFacts> {
  let large;
  try {
    large = await readPixels(bytes, TEXTURE_SIDE);
  } catch (err) {
    throw new ProviderError(
      `training photo ${index + 1} unreadable`,
      'rejected',
      `Photo ${index + 1} could not be read; remove it from the set and try again.`,
      { cause: err },
    );
  }
  const texture = measureTexture(large.data, large.width, large.height);
  const small = await shrinkPixels(large, STATS_SIDE);
  const colour = measureColour(small.data, small.width, small.height);
  const found = lookForSubject ? findSubject(small.data, small.width, small.height) : null;
  return { colour, texture, subjectClarity: found?.clear ? found.clarity : 0 };
}

/**
 * The photo most like the set as a whole (nearest the mean colour and contrast) among those with a
 * clear subject, so the cut-out represents the photos rather than the odd one out.
 */
function representative(facts: PhotoFacts[]): number | undefined {
  const centre = [0, 1, 2, 3].map((j) => mean(facts.map((f) => f.colour.signature[j]!)));
  let best: number | undefined;
  let bestDistance = Infinity;
  facts.forEach((f, i) => {
    if (f.subjectClarity === 0) return;
    const d = Math.hypot(...f.colour.signature.map((v, j) => v - centre[j]!));
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
}

/**
 * The tone curve: luminance at evenly spaced quantiles of all photos together (each photo weighing the
 * same), from the 0.5th to the 99.5th percentile so a few clipped pixels do not set the ends.
 */
function learnToneCurve(histograms: Float64Array[]): number[] {
  const total = new Float64Array(256);
  for (const h of histograms) for (let i = 0; i < 256; i++) total[i]! += h[i]! / histograms.length;
  const curve: number[] = [];
  for (let k = 0; k < TONE_CURVE_POINTS; k++) {
    const q = 0.005 + (0.99 * k) / (TONE_CURVE_POINTS - 1);
    let cumulative = 0;
    let level = 255;
    for (let i = 0; i < 256; i++) {
      cumulative += total[i]!;
      if (cumulative >= q) {
        level = i;
        break;
      }
    }
    curve.push(round(Math.max(level / 255, curve.at(-1) ?? 0)));
  }
  return curve;
}

function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted)
    throw new ProviderError('local training aborted', 'cancelled', 'The training was cancelled.');
}

const rejected = (message: string, userMessage: string) =>
  new ProviderError(message, 'rejected', userMessage);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);
const round = (v: number) => Math.round(v * 10000) / 10000;
