import type { ProviderImage, ProviderVideo } from '../image-tools.ts';
import type { ToolRun } from '../local/tools/common.ts';
import type { TextToImageProvider } from '../text-to-image.ts';

/**
 * One image tool at the vendor-adapter layer: its request, what it makes, and how each vendor runs it.
 * The vendor adapters look the request's tool up in ADAPTER_TOOLS (./index.ts) and name no tool, so a
 * tool is added here and in the table, not in every adapter. Every vendor field is required: a tool
 * without a mapping for one vendor does not compile.
 */
export interface AdapterTool<Request extends ToolRequestCommon, Output extends ToolOutput = ToolOutput> {
  /** What a run returns: images (like text-to-image), or one video. */
  output: Output;
  /** The local engine's model name for this tool (the catalogue checks local entries against it). */
  localModel: string;
  /** Our request → the fal model's input (input images as Files, uploaded by the client). */
  fal(request: Request): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Our request → the Replicate model's input (input images as Files, uploaded by the client). */
  replicate(request: Request): Record<string, unknown>;
  /** Runs the request with the local engine (sharp and ffmpeg, no network). */
  local(request: Request, deps: LocalToolDeps): Promise<LocalOutput<Output>>;
}

export type ToolOutput = 'images' | 'video';

/** The local engine makes one image per run, or one video. */
export type LocalOutput<Output extends ToolOutput> = Output extends 'video' ? ProviderVideo : ProviderImage;

export interface LocalToolDeps {
  /** The cancel signal and progress reporter of this run. */
  run: ToolRun;
  /** The local text-to-image engine, which paints copy-style's description. */
  textToImage: TextToImageProvider;
  /** The ffmpeg binary for video output. */
  ffmpegPath: string;
}

/** What every tool request carries besides its own parameters. */
export interface ToolRequestCommon {
  tool: string;
  /** The vendor's model name (`fal-ai/flux/dev/image-to-image`, `local/edit`…). */
  providerModel: string;
  /** Always set: chosen by the pipeline when the person leaves it empty. */
  seed: number;
}
