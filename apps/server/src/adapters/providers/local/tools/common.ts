import sharp from 'sharp';
import { withDecodeSlot } from '../../../media/decode-slots.ts';
import type { InputImage } from '../../image-tools.ts';
import { ProviderError, type RunContext } from '../../text-to-image.ts';

/**
 * What every local tool gets from the adapter: the cancel signal and a progress reporter that also
 * checks that signal and lets the event loop breathe (an abort, a progress write, an HTTP request of
 * the API role sharing this process) between CPU-bound steps.
 */
export interface ToolRun {
  signal: AbortSignal;
  seed: number;
  progress(percent: number, message: string): Promise<void>;
  /** Throws the 'cancelled' ProviderError when the job was cancelled. */
  checkpoint(): Promise<void>;
}

export function toolRun(ctx: RunContext, seed: number): ToolRun {
  const checkpoint = async () => {
    throwIfCancelled(ctx.signal);
    await new Promise<void>((resolve) => setImmediate(resolve));
    throwIfCancelled(ctx.signal);
  };
  return {
    signal: ctx.signal,
    seed,
    checkpoint,
    async progress(percent, message) {
      throwIfCancelled(ctx.signal);
      await ctx.onProgress({ status: 'running', percent: Math.round(percent), message });
      await checkpoint();
    },
  };
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw cancelled();
}

export const cancelled = () => new ProviderError('local tool aborted', 'cancelled', 'The job was cancelled.');

export const rejected = (message: string, userMessage: string) =>
  new ProviderError(message, 'rejected', userMessage);

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/**
 * Decodes an input image to raw 8-bit pixels (3 channels, or 4 when it has transparency and
 * `keepAlpha`). A file sharp cannot read is the person's input, not a fault to retry.
 */
export async function decodeInput(
  image: InputImage,
  what: string,
  options: {
    keepAlpha?: boolean;
    /** Shrinks to fit inside this box (never enlarges). */
    fit?: { width: number; height: number };
    /** Resizes and crops to exactly this size, keeping the most interesting part (sharp's attention strategy). */
    cover?: { width: number; height: number };
    /** Resizes to exactly this size (Lanczos-3), stretching if the aspect ratio differs. */
    exact?: { width: number; height: number };
  } = {},
): Promise<RawImage> {
  try {
    let pipeline = sharp(image.bytes, { failOn: 'error' });
    if (options.fit) {
      pipeline = pipeline.resize(options.fit.width, options.fit.height, {
        fit: 'inside',
        withoutEnlargement: true,
      });
    } else if (options.cover) {
      pipeline = pipeline.resize(options.cover.width, options.cover.height, {
        fit: 'cover',
        position: sharp.strategy.attention,
      });
    } else if (options.exact) {
      pipeline = pipeline.resize(options.exact.width, options.exact.height, {
        fit: 'fill',
        kernel: 'lanczos3',
      });
    }
    const meta = await sharp(image.bytes).metadata();
    pipeline =
      options.keepAlpha && meta.hasAlpha
        ? pipeline.ensureAlpha()
        : pipeline.flatten({ background: '#ffffff' }).removeAlpha();
    // Takes a decode slot like uploads do (adapters/media/decode-slots.ts), waiting however long it
    // takes: a job's input is already stored, and jobs are bounded by the worker's own concurrency.
    const output = pipeline.toColourspace('srgb').raw();
    const { data, info } = await withDecodeSlot(() => output.toBuffer({ resolveWithObject: true }), {
      wait: 'always',
    });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (cause) {
    throw new ProviderError(
      `cannot decode ${what}: ${String(cause)}`,
      'rejected',
      `The ${what} is not an image we can read. Try a JPEG, PNG or WebP file.`,
      { cause },
    );
  }
}

/** Wraps raw pixels for sharp. */
export const rawInput = (img: RawImage) => ({
  raw: { width: img.width, height: img.height, channels: img.channels as 3 | 4 },
});

/**
 * Runs `fn(rowStart, rowEnd)` over bands of rows, yielding to the event loop between bands (about a
 * quarter megapixel each) so a large image never blocks the process for long; checks for cancel.
 */
export async function forEachBand(
  run: ToolRun,
  width: number,
  height: number,
  fn: (rowStart: number, rowEnd: number) => void,
): Promise<void> {
  const rows = Math.max(1, Math.floor(262_144 / Math.max(1, width)));
  for (let y = 0; y < height; y += rows) {
    fn(y, Math.min(height, y + rows));
    if (y + rows < height) await run.checkpoint();
  }
}

export const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);
export const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);
export const smoothstep = (a: number, b: number, x: number) => {
  const t = clamp01((x - a) / (b - a));
  return t * t * (3 - 2 * t);
};
