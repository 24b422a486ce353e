import type { Config } from '../../../config.ts';
import { downloadImages, downloadVideo } from '../hosted.ts';
import type { ImageToolsProvider, ToolRequest, ToolResult } from '../image-tools.ts';
import type { RunContext } from '../text-to-image.ts';
import { adapterTool } from '../tools/index.ts';
import {
  ReplicateAdapter,
  predictionOutputUrls,
  replicateOptions,
  seedFromLogs,
  type ReplicateOptions,
  type ReplicateOverrides,
} from './replicate.text-to-image.ts';
import { REPLICATE } from './replicate.tool-inputs.ts';

/**
 * The image tools on Replicate, over the same prediction cycle as text-to-image (`ReplicatePredictions`:
 * create → poll, resume, cancel, deadline, error kinds). Input images go into the model input as
 * `File`s, so the `replicate` client uploads each through POST /v1/files first and sends the model the
 * file's URL; a resumed prediction is polled, never re-uploaded. Outputs (a URL, a list of URLs or an
 * object holding them, depending on the model) are downloaded at once: Replicate deletes them after
 * about an hour.
 *
 * The input of each tool is the input of the catalogue's model for it (catalogue.ts), built by the
 * tool's `replicate` mapping (tools/<tool>.ts) from the per-model schemas on replicate.com
 * (docs/reference/providers/replicate.md §3).
 */

export type ReplicateImageToolsOptions = ReplicateOptions;

export class ReplicateImageTools extends ReplicateAdapter implements ImageToolsProvider {
  run(request: ToolRequest, ctx: RunContext): Promise<ToolResult> {
    const tool = adapterTool(request);
    const input = () => tool.replicate(request);
    const { fetchFn } = this.requests;
    if (tool.output === 'video') {
      return this.requests.run(request.providerModel, input, ctx, async (prediction, signal) => ({
        kind: 'video',
        // Kling answers one URL; the first file of whatever shape it comes in is the video.
        video: await downloadVideo(predictionOutputUrls(prediction)[0]!, fetchFn, signal, REPLICATE),
        // Kling takes no seed; the request's is kept for the recipe.
        seed: request.seed,
        requestId: prediction.id,
      }));
    }
    return this.requests.run(request.providerModel, input, ctx, async (prediction, signal) => ({
      kind: 'images',
      images: await downloadImages(predictionOutputUrls(prediction), fetchFn, signal, REPLICATE),
      seed: seedFromLogs(prediction) ?? request.seed,
      requestId: prediction.id,
    }));
  }

  cancel(requestId: string): Promise<boolean> {
    return this.requests.cancel(requestId);
  }
}

/** The Replicate image-tools adapter from config, or undefined when `REPLICATE_API_TOKEN` is unset. */
export function createReplicateImageTools(config: Pick<Config, 'providers'>, overrides?: ReplicateOverrides) {
  const options = replicateOptions(config, overrides);
  return options && new ReplicateImageTools(options);
}
