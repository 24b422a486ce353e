import type { Config } from '../../../config.ts';
import { DEFAULT_MOTION_PROMPT, downloadImages, downloadVideo, inputFile } from '../hosted.ts';
import type { AnimateRequest, ImageToolsProvider, ToolRequest, ToolResult } from '../image-tools.ts';
import { ProviderError, type RunContext } from '../text-to-image.ts';
import {
  ReplicatePredictions,
  nearestAspectRatio,
  predictionOutputUrls,
  seedFromLogs,
  type ReplicateOptions,
} from './replicate.text-to-image.ts';

/**
 * The image tools on Replicate, over the same prediction cycle as text-to-image (`ReplicatePredictions`:
 * create → poll, resume, cancel, deadline, error kinds). Input images go into the model input as
 * `File`s, so the `replicate` client uploads each through POST /v1/files first and sends the model the
 * file's URL; a resumed prediction is polled, never re-uploaded. Outputs (a URL, a list of URLs or an
 * object holding them, depending on the model) are downloaded at once: Replicate deletes them after
 * about an hour.
 *
 * The input of each tool is the input of the catalogue's model for it (tools-catalogue.ts; per-model
 * schemas on replicate.com, shared/reference/providers/replicate.md §3):
 * - edit → `black-forest-labs/flux-dev` (image-to-image through `image` + `prompt_strength`)
 * - copy_style → `black-forest-labs/flux-redux-dev`
 * - product_holding → `flux-kontext-apps/multi-image-kontext-pro`
 * - upscale → `nightmareai/real-esrgan`
 * - animate → `kwaivgi/kling-v2.1`
 */

export type ReplicateImageToolsOptions = ReplicateOptions;

const VENDOR = 'replicate';

export class ReplicateImageTools implements ImageToolsProvider {
  readonly name = 'replicate' as const;
  readonly available = true;
  private readonly predictions: ReplicatePredictions;

  constructor(options: ReplicateImageToolsOptions) {
    this.predictions = new ReplicatePredictions(options);
  }

  run(request: ToolRequest, ctx: RunContext): Promise<ToolResult> {
    const input = () => toReplicateToolInput(request);
    const { fetchFn } = this.predictions;
    if (request.tool === 'animate') {
      return this.predictions.run(request.providerModel, input, ctx, async (prediction, signal) => ({
        kind: 'video',
        // Kling answers one URL; the first file of whatever shape it comes in is the video.
        video: await downloadVideo(predictionOutputUrls(prediction)[0]!, fetchFn, signal, VENDOR),
        // Kling takes no seed; the request's is kept for the recipe.
        seed: request.seed,
        requestId: prediction.id,
      }));
    }
    return this.predictions.run(request.providerModel, input, ctx, async (prediction, signal) => ({
      kind: 'images',
      images: await downloadImages(predictionOutputUrls(prediction), fetchFn, signal, VENDOR),
      seed: seedFromLogs(prediction) ?? request.seed,
      requestId: prediction.id,
    }));
  }

  cancel(requestId: string): Promise<boolean> {
    return this.predictions.cancel(requestId);
  }
}

/** Our tool request → the Replicate model's input (input images as Files, uploaded by the client). */
export function toReplicateToolInput(request: ToolRequest): Record<string, unknown> {
  switch (request.tool) {
    case 'edit':
      // With `image`, flux-dev runs image-to-image and the output takes the input's aspect ratio, so no
      // `aspect_ratio` is sent. `prompt_strength` is our strength (1 = the original is fully replaced).
      // flux-dev has no negative prompt: `negativePrompt` is not sent.
      return {
        prompt: request.prompt,
        image: inputFile(request.image, 'image'),
        prompt_strength: request.strength,
        seed: request.seed,
        num_outputs: 1,
        output_format: 'png',
      };
    case 'copy_style':
      // flux-redux-dev takes no prompt (redux_image, aspect_ratio, num_outputs, guidance, steps, seed,
      // output settings): it redraws the reference's subject and look, so `description` cannot steer it
      // and is not sent. The output keeps the reference's shape.
      return {
        redux_image: inputFile(request.style, 'style'),
        aspect_ratio: nearestAspectRatio(request.style.width, request.style.height),
        seed: request.seed,
        num_outputs: 1,
        output_format: 'png',
      };
    case 'product_holding':
      // Kontext Pro with two reference images: the person is image 1, the product image 2.
      return {
        prompt: productHoldingPrompt(request.prompt),
        input_image_1: inputFile(request.person, 'person'),
        input_image_2: inputFile(request.product, 'product'),
        aspect_ratio: request.aspectRatio,
        seed: request.seed,
        output_format: 'png',
        safety_tolerance: 2,
      };
    case 'upscale':
      return { image: inputFile(request.image, 'image'), scale: request.factor, face_enhance: false };
    case 'animate':
      return {
        prompt: request.prompt || DEFAULT_MOTION_PROMPT,
        start_image: inputFile(request.image, 'image'),
        duration: klingDuration(request),
        mode: 'standard',
      };
  }
}

export function productHoldingPrompt(direction: string | undefined): string {
  return [
    'The person from the first image holds the product from the second image in their hands, presenting it to the camera.',
    "Keep the person's face, hair, body and clothing, and the product's shape, colours, label and logo, exactly as they are.",
    'One natural photo with matching lighting and shadows.',
    direction ? `Also: ${direction}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function klingDuration(request: AnimateRequest): 5 | 10 {
  if (request.durationSeconds === 5 || request.durationSeconds === 10) return request.durationSeconds;
  throw new ProviderError(
    `replicate: Kling makes 5 or 10 second videos, not ${request.durationSeconds}`,
    'rejected',
    'This model makes videos of 5 or 10 seconds. Choose one of those durations.',
  );
}

/** The Replicate image-tools adapter from config, or undefined when `REPLICATE_API_TOKEN` is unset. */
export function createReplicateImageTools(
  config: Pick<Config, 'providers'>,
  overrides: Partial<Omit<ReplicateImageToolsOptions, 'apiToken'>> = {},
): ReplicateImageTools | undefined {
  const { replicate, timeoutSeconds } = config.providers;
  if (!replicate.apiToken) return undefined;
  return new ReplicateImageTools({
    apiToken: replicate.apiToken,
    baseUrl: replicate.baseUrl,
    timeoutMs: timeoutSeconds * 1000,
    ...overrides,
  });
}
