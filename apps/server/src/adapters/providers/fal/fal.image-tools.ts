import sharp from 'sharp';
import type { Config } from '../../../config.ts';
import {
  DEFAULT_MOTION_PROMPT,
  TRANSIENT_MESSAGE,
  VendorRequestEndedError,
  downloadVideo,
  inputFile,
} from '../hosted.ts';
import type {
  AnimateRequest,
  ImageToolsProvider,
  InputImage,
  ProductHoldingRequest,
  ToolRequest,
  ToolResult,
} from '../image-tools.ts';
import { ProviderError, type RunContext } from '../text-to-image.ts';
import { FalQueue, falImages, type FalImage, type FalOptions } from './fal.text-to-image.ts';

/**
 * The image tools on fal.ai, over the same queue cycle as text-to-image (`FalQueue`: submit → poll →
 * result, resume, cancel, deadline, error kinds). Input images go into the model input as `File`s, so
 * `@fal-ai/client` uploads each to fal storage first (initiate + PUT) and sends the model its URL; a
 * resumed request is polled, never re-uploaded. Outputs are downloaded at once (fal URLs expire).
 *
 * The input of each tool is the input of the catalogue's model for it (tools-catalogue.ts), from the
 * client's endpoint typings (shared/reference/providers/fal.md §10):
 * - edit → `fal-ai/flux/dev/image-to-image`
 * - copy_style → `fal-ai/flux-1/dev/redux`
 * - product_holding → `fal-ai/flux-kontext/dev`
 * - upscale → `fal-ai/esrgan`
 * - animate → `fal-ai/kling-video/v2.1/standard/image-to-video`
 */

export type FalImageToolsOptions = FalOptions;

export class FalImageTools implements ImageToolsProvider {
  readonly name = 'fal' as const;
  readonly available = true;
  private readonly queue: FalQueue;

  constructor(options: FalImageToolsOptions) {
    this.queue = new FalQueue(options);
  }

  run(request: ToolRequest, ctx: RunContext): Promise<ToolResult> {
    const endpoint = request.providerModel;
    const input = () => toFalToolInput(request);
    if (request.tool === 'animate') {
      return this.queue.run(endpoint, input, ctx, async (output, requestId, signal) => {
        const url = (output as { video?: { url?: unknown } } | null)?.video?.url;
        if (typeof url !== 'string') {
          throw new VendorRequestEndedError(
            `fal request ${requestId} returned no video`,
            'transient',
            TRANSIENT_MESSAGE,
          );
        }
        return {
          kind: 'video',
          video: await downloadVideo(url, this.queue.fetchFn, signal, 'fal'),
          // Kling takes no seed; the request's is kept for the recipe.
          seed: request.seed,
          requestId,
        };
      });
    }
    return this.queue.run(endpoint, input, ctx, async (output, requestId, signal) => {
      const data = (output ?? {}) as FalToolImageOutput;
      // Most endpoints answer `{images, seed, has_nsfw_concepts}`; the upscaler a single `{image}`.
      const images = data.images ?? (data.image ? [data.image] : []);
      return {
        kind: 'images',
        images: await falImages(images, data.has_nsfw_concepts, requestId, this.queue.fetchFn, signal),
        seed: typeof data.seed === 'number' ? data.seed : request.seed,
        requestId,
      };
    });
  }

  cancel(requestId: string, providerModel: string): Promise<boolean> {
    return this.queue.cancel(requestId, providerModel);
  }
}

interface FalToolImageOutput {
  images?: FalImage[];
  image?: FalImage;
  seed?: number;
  has_nsfw_concepts?: boolean[];
}

/** Our tool request → the fal model's input (input images as Files, uploaded by the client). */
export async function toFalToolInput(request: ToolRequest): Promise<Record<string, unknown>> {
  const common = { seed: request.seed, num_images: 1, output_format: 'png', enable_safety_checker: true };
  switch (request.tool) {
    case 'edit':
      // FLUX [dev] image-to-image has no negative prompt: `negativePrompt` is not sent. Its `strength`
      // is ours (how far the result may move from the original).
      return {
        image_url: inputFile(request.image, 'image'),
        prompt: request.prompt,
        strength: request.strength,
        ...common,
      };
    case 'copy_style':
      // FLUX.1 Redux [dev] takes no prompt (fal's typings: image_url, image_size, steps, guidance, seed):
      // it redraws the reference's subject and look, so `description` cannot steer it and is not sent.
      // A model that follows text as well (fal-ai/flux-pro/v1.1/redux) would need a catalogue change.
      return {
        image_url: inputFile(request.style, 'style'),
        image_size: sizeNearOneMegapixel(request.style.width, request.style.height),
        ...common,
      };
    case 'product_holding':
      return productHoldingInput(request, common);
    case 'upscale':
      // ESRGAN's default model (RealESRGAN_x4plus) with `scale` 2 or 4; the output is `{image}`.
      return { image_url: inputFile(request.image, 'image'), scale: request.factor, output_format: 'png' };
    case 'animate':
      return {
        image_url: inputFile(request.image, 'image'),
        prompt: request.prompt || DEFAULT_MOTION_PROMPT,
        duration: klingDuration(request),
      };
  }
}

/**
 * FLUX.1 Kontext [dev] edits one image by instruction; it has no second image input. So both pictures go
 * in as one reference, side by side on a white canvas at the requested aspect ratio (the person on the
 * left, larger; the product on the right), and the instruction asks for a single photo of that person
 * holding that product. `resolution_mode` asks for the output at the same aspect ratio. This is the usual
 * way to give Kontext [dev] several references; the Replicate adapter uses a multi-image Kontext model.
 */
async function productHoldingInput(
  request: ProductHoldingRequest,
  common: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const reference = await sideBySide(request.person, request.product, request.width, request.height);
  return {
    image_url: inputFile({ bytes: reference, contentType: 'image/png' }, 'person-and-product'),
    prompt: productHoldingPrompt(request.prompt),
    resolution_mode: request.aspectRatio,
    ...common,
  };
}

export function productHoldingPrompt(direction: string | undefined): string {
  return [
    'Make one photo of the person on the left holding the product shown on the right in their hands, presenting it to the camera.',
    "Keep the person's face, hair, body and clothing, and the product's shape, colours, label and logo, exactly as they are.",
    'Natural lighting and shadows; no side-by-side layout and no white border in the result.',
    direction ? `Also: ${direction}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The person (left, 60 %) and the product (right, 40 %), each fitted whole, on a white width × height canvas. */
async function sideBySide(
  person: InputImage,
  product: InputImage,
  width: number,
  height: number,
): Promise<Buffer> {
  const personWidth = Math.round(width * 0.6);
  const productWidth = width - personWidth;
  const white = { r: 255, g: 255, b: 255, alpha: 1 };
  const [left, right] = await Promise.all([
    sharp(person.bytes).resize(personWidth, height, { fit: 'contain', background: white }).png().toBuffer(),
    sharp(product.bytes)
      .resize(productWidth, Math.round(height * 0.7), { fit: 'contain', background: white })
      .png()
      .toBuffer(),
  ]);
  return sharp({ create: { width, height, channels: 3, background: white } })
    .composite([
      { input: left, left: 0, top: 0 },
      { input: right, left: personWidth, top: Math.round(height * 0.15) },
    ])
    .removeAlpha()
    .png()
    .toBuffer();
}

/** About one megapixel at the reference's aspect ratio, in multiples of 16 (what FLUX works in). */
export function sizeNearOneMegapixel(width: number, height: number): { width: number; height: number } {
  const ratio = width / height;
  const w = Math.sqrt(1024 * 1024 * ratio);
  const round16 = (n: number) => Math.max(256, Math.min(2048, Math.round(n / 16) * 16));
  return { width: round16(w), height: round16(w / ratio) };
}

function klingDuration(request: AnimateRequest): '5' | '10' {
  if (request.durationSeconds === 5 || request.durationSeconds === 10) {
    return String(request.durationSeconds) as '5' | '10';
  }
  throw new ProviderError(
    `fal: Kling makes 5 or 10 second videos, not ${request.durationSeconds}`,
    'rejected',
    'This model makes videos of 5 or 10 seconds. Choose one of those durations.',
  );
}

/** The fal image-tools adapter from config, or undefined when `FAL_KEY` is unset. */
export function createFalImageTools(
  config: Pick<Config, 'providers'>,
  overrides: Partial<Omit<FalImageToolsOptions, 'key'>> = {},
): FalImageTools | undefined {
  const { fal, timeoutSeconds } = config.providers;
  if (!fal.key) return undefined;
  return new FalImageTools({
    key: fal.key,
    baseUrl: fal.baseUrl,
    timeoutMs: timeoutSeconds * 1000,
    ...overrides,
  });
}
