import type { Config } from '../../../config.ts';
import { TRANSIENT_MESSAGE, VendorRequestEndedError, downloadVideo } from '../hosted.ts';
import type { ImageToolsProvider, ToolRequest, ToolResult } from '../image-tools.ts';
import type { RunContext } from '../text-to-image.ts';
import { adapterTool } from '../tools/index.ts';
import {
  FalAdapter,
  falImages,
  falOptions,
  type FalImage,
  type FalOptions,
  type FalOverrides,
} from './fal.text-to-image.ts';

/**
 * The image tools on fal.ai, over the same queue cycle as text-to-image (`FalQueue`: submit → poll →
 * result, resume, cancel, deadline, error kinds). Input images go into the model input as `File`s, so
 * `@fal-ai/client` uploads each to fal storage first (initiate + PUT) and sends the model its URL; a
 * resumed request is polled, never re-uploaded. Outputs are downloaded at once (fal URLs expire).
 *
 * The input of each tool is the input of the catalogue's model for it (catalogue.ts), built by the
 * tool's `fal` mapping (tools/<tool>.ts) from the client's endpoint typings
 * (docs/reference/providers/fal.md §10).
 */

export type FalImageToolsOptions = FalOptions;

export class FalImageTools extends FalAdapter implements ImageToolsProvider {
  run(request: ToolRequest, ctx: RunContext): Promise<ToolResult> {
    const endpoint = request.providerModel;
    const tool = adapterTool(request);
    const input = async () => tool.fal(request);
    if (tool.output === 'video') {
      return this.requests.run(endpoint, input, ctx, async (output, requestId, signal) => {
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
          video: await downloadVideo(url, this.requests.fetchFn, signal, 'fal'),
          // Kling takes no seed; the request's is kept for the recipe.
          seed: request.seed,
          requestId,
        };
      });
    }
    return this.requests.run(endpoint, input, ctx, async (output, requestId, signal) => {
      const data = (output ?? {}) as FalToolImageOutput;
      // Most endpoints answer `{images, seed, has_nsfw_concepts}`; the upscaler a single `{image}`.
      const images = data.images ?? (data.image ? [data.image] : []);
      return {
        kind: 'images',
        images: await falImages(images, data.has_nsfw_concepts, requestId, this.requests.fetchFn, signal),
        seed: typeof data.seed === 'number' ? data.seed : request.seed,
        requestId,
      };
    });
  }

  cancel(requestId: string, providerModel: string): Promise<boolean> {
    return this.requests.cancel(requestId, providerModel);
  }
}

interface FalToolImageOutput {
  images?: FalImage[];
  image?: FalImage;
  seed?: number;
  has_nsfw_concepts?: boolean[];
}

/** The fal image-tools adapter from config, or undefined when `FAL_KEY` is unset. */
export function createFalImageTools(config: Pick<Config, 'providers'>, overrides?: FalOverrides) {
  const options = falOptions(config, overrides);
  return options && new FalImageTools(options);
}
