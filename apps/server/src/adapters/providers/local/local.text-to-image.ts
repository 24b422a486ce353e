import sharp from 'sharp';
import {
  ProviderError,
  type RunContext,
  type RunResult,
  type TextToImageProvider,
  type TextToImageRequest,
  type ProviderImage,
} from '../text-to-image.ts';
import { LOCAL_MODEL_NAMES, localPreset } from './presets.ts';
import { analysePrompt } from './prompt-analysis.ts';
import { hashString } from './random.ts';
import { renderPng, type RenderStage } from './renderer.ts';
import type { AppliedStyle } from './style-layers.ts';
import { LOCAL_STYLE_PREFIX, type StyleProfileSource } from './style-profile.ts';

/**
 * The local engine: Lumina's offline, default text-to-image provider.
 *
 * It is a deterministic *procedural* renderer, not a neural network (no model weights exist on this
 * machine). The prompt's words choose a palette, a composition (ridgelines, skyline, figure, sun or
 * moon, stars, water, abstract flow fields) and a surface (watercolour, oil strokes, low-poly facets,
 * grain); the seed picks the layout. The same prompt, negative prompt, model, seed, size, strength and
 * style give byte-identical PNGs. The UI and catalogue call it "Local procedural engine".
 */

export const LOCAL_MIN_SIDE = 256;
export const LOCAL_MAX_SIDE = 2048;
export const LOCAL_MAX_IMAGES = 8;

/** Share of one image's progress reached after each stage. */
const STAGE_DONE: Record<RenderStage, number> = { compose: 0.1, paint: 0.55, finish: 0.8, encode: 1 };
const STAGE_LABEL: Record<RenderStage, string> = {
  compose: 'Composing',
  paint: 'Painting layers',
  finish: 'Applying texture',
  encode: 'Encoding',
};

let sharpConfigured = false;
/**
 * sharp is configured once per process. Resource budget: the worker runs WORKER_CONCURRENCY (default
 * 2) jobs on a 2-core machine, and each local render is one resize + one PNG encode, so one libvips
 * thread per operation keeps parallel jobs from oversubscribing the cores; the operation cache is off
 * because every render is a fresh raw buffer (caching would only hold memory).
 */
function configureSharp(): void {
  if (sharpConfigured) return;
  sharp.concurrency(1);
  sharp.cache(false);
  sharpConfigured = true;
}

export interface LocalTextToImageOptions {
  /** Where trained style profiles live (training issue); without it, `local-style:` LoRAs are refused. */
  styles?: StyleProfileSource;
}

export class LocalTextToImage implements TextToImageProvider {
  readonly name = 'local' as const;
  readonly available = true;

  constructor(private readonly options: LocalTextToImageOptions = {}) {
    configureSharp();
  }

  async run(request: TextToImageRequest, ctx: RunContext): Promise<RunResult> {
    const preset = localPreset(request.providerModel);
    if (!preset) {
      throw rejected(
        `unknown local model ${request.providerModel}`,
        `The local engine has no model "${request.providerModel}". Choose one of: ${LOCAL_MODEL_NAMES.join(', ')}.`,
      );
    }
    checkSize(request.width, 'width');
    checkSize(request.height, 'height');
    if (
      !Number.isInteger(request.numImages) ||
      request.numImages < 1 ||
      request.numImages > LOCAL_MAX_IMAGES
    ) {
      throw rejected('bad numImages', `The local engine makes 1 to ${LOCAL_MAX_IMAGES} images at a time.`);
    }
    if (!Number.isFinite(request.seed)) throw rejected('bad seed', 'The seed must be a whole number.');
    const promptStrength = clamp(request.promptStrength ?? 1, 0, 1);

    const requestId = localRequestId(request);
    throwIfAborted(ctx.signal);
    await ctx.onSubmitted(requestId);
    await ctx.onProgress({ status: 'running', percent: 0, message: 'Starting the local engine' });
    const style = await this.resolveStyle(request);
    const scene = analysePrompt(request.prompt, request.negativePrompt ?? '');

    const images: ProviderImage[] = [];
    const n = request.numImages;
    for (let index = 0; index < n; index++) {
      const bytes = await renderPng(
        {
          scene,
          preset,
          seed: request.seed + index,
          width: request.width,
          height: request.height,
          promptStrength,
          style,
        },
        async (stage) => {
          throwIfAborted(ctx.signal);
          await ctx.onProgress({
            status: 'running',
            percent: Math.round(((index + STAGE_DONE[stage]) / n) * 100),
            message: `${STAGE_LABEL[stage]} (image ${index + 1} of ${n})`,
          });
          // Let timers and I/O (an abort, a progress write) run between CPU-bound stages.
          await new Promise<void>((resolve) => setImmediate(resolve));
          throwIfAborted(ctx.signal);
        },
      );
      images.push({ bytes, contentType: 'image/png', width: request.width, height: request.height });
    }
    return { images, seed: request.seed, requestId };
  }

  /** Local renders are not queued anywhere: nothing to cancel remotely (the job's signal stops them). */
  async cancel(): Promise<boolean> {
    return false;
  }

  private async resolveStyle(request: TextToImageRequest): Promise<AppliedStyle | undefined> {
    if (!request.lora) return undefined;
    const { url } = request.lora;
    if (!url.startsWith(LOCAL_STYLE_PREFIX)) {
      throw rejected(
        `local engine cannot load LoRA ${url}`,
        'The local engine can only apply styles trained locally. Choose a fal.ai or Replicate model for this LoRA.',
      );
    }
    const id = url.slice(LOCAL_STYLE_PREFIX.length);
    const profile = this.options.styles ? await this.options.styles.get(id) : undefined;
    if (!profile)
      throw rejected(`style profile ${id} not found`, 'The trained style for this model was not found.');
    return { profile, scale: clamp(request.lora.scale ?? request.loraScale ?? 1, 0, 2) };
  }
}

/** `local-<hash>` of everything that determines the output: a retried job gets the same id. */
export function localRequestId(r: TextToImageRequest): string {
  const key = JSON.stringify([
    r.providerModel,
    r.prompt,
    r.negativePrompt ?? '',
    r.seed,
    r.width,
    r.height,
    r.numImages,
    r.promptStrength ?? null,
    r.loraScale ?? null,
    r.lora?.url ?? null,
    r.lora?.scale ?? null,
  ]);
  const a = hashString(key).toString(16).padStart(8, '0');
  const b = hashString(key, 0x2545f491).toString(16).padStart(8, '0');
  return `local-${a}${b}`;
}

function checkSize(value: number, what: 'width' | 'height'): void {
  if (!Number.isInteger(value) || value < LOCAL_MIN_SIDE || value > LOCAL_MAX_SIDE || value % 8 !== 0) {
    throw rejected(
      `bad ${what} ${value}`,
      `The image ${what} must be a multiple of 8 from ${LOCAL_MIN_SIDE} to ${LOCAL_MAX_SIDE} pixels (got ${value}).`,
    );
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted)
    throw new ProviderError('local render aborted', 'cancelled', 'The generation was cancelled.');
}

const rejected = (message: string, userMessage: string) =>
  new ProviderError(message, 'rejected', userMessage);
const clamp = (v: number, lo: number, hi: number) => (v < lo ? lo : v > hi ? hi : v);
