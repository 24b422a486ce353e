import { createHash } from 'node:crypto';
import type {
  ImageToolsProvider,
  InputImage,
  ProviderImage,
  ProviderVideo,
  ToolRequest,
  ToolResult,
} from '../../image-tools.ts';
import type { RunContext, TextToImageProvider } from '../../text-to-image.ts';
import { adapterTool } from '../../tools/index.ts';
import { rejected, throwIfCancelled, toolRun } from './common.ts';

/**
 * The local (offline) image tools: real image work with sharp and ffmpeg, no neural network. Each
 * tool is its own module, run by the tool's `local` mapping (tools/<tool>.ts); this class checks the
 * model name, reports the request id, and runs it.
 * Results depend only on the request (inputs, parameters, seed), so a retried job gets the same
 * request id and the same output.
 */

export interface LocalImageToolsOptions {
  /** The ffmpeg binary for video output (config.ffmpegPath, else `defaultFfmpegPath()`). */
  ffmpegPath: string;
  /** The local text-to-image engine, which paints copy-style's description. */
  textToImage: TextToImageProvider;
}

export class LocalImageTools implements ImageToolsProvider {
  readonly name = 'local' as const;
  readonly available = true;

  constructor(private readonly options: LocalImageToolsOptions) {}

  async run(request: ToolRequest, ctx: RunContext): Promise<ToolResult> {
    const tool = adapterTool(request);
    const expected = tool.localModel;
    if (request.providerModel !== expected) {
      throw rejected(
        `unknown local model ${request.providerModel} for ${request.tool}`,
        `The local engine has no model "${request.providerModel}" for this tool. Use ${expected}.`,
      );
    }
    if (!Number.isFinite(request.seed)) throw rejected('bad seed', 'The seed must be a whole number.');
    throwIfCancelled(ctx.signal);
    const requestId = localToolRequestId(request);
    await ctx.onSubmitted(requestId);
    const run = toolRun(ctx, request.seed);
    await run.progress(0, 'Starting the local engine');
    const seed = request.seed;
    const deps = { run, textToImage: this.options.textToImage, ffmpegPath: this.options.ffmpegPath };
    if (tool.output === 'video') {
      const video = (await tool.local(request, deps)) as ProviderVideo;
      return { kind: 'video', video, seed, requestId };
    }
    const image = (await tool.local(request, deps)) as ProviderImage;
    return { kind: 'images', images: [image], seed, requestId };
  }

  /** Local runs are not queued anywhere: nothing to cancel remotely (the job's signal stops them). */
  async cancel(): Promise<boolean> {
    return false;
  }
}

/**
 * `local-<uuid>`: a UUID-shaped SHA-256 of everything that determines the output (tool, model, seed,
 * parameters and the input images' bytes), so a retried job reports the same id.
 */
export function localToolRequestId(request: ToolRequest): string {
  const isImage = (v: unknown): v is InputImage =>
    typeof v === 'object' && v !== null && Buffer.isBuffer((v as InputImage).bytes);
  const parts = Object.entries(request)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, v]) => [key, isImage(v) ? createHash('sha256').update(v.bytes).digest('hex') : v]);
  const h = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  return `local-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
