/**
 * The image-tool capability, one adapter per vendor like text-to-image. A request is a discriminated
 * union on `tool`, so the job pipeline has one call to make; each adapter finds the request's tool in
 * ADAPTER_TOOLS (tools/index.ts), which holds every tool's vendor mappings. The run context (cancel
 * signal, progress, submitted request id for resuming) is the text-to-image one.
 */
import type { ProviderImage, ProviderName, RunContext, RunResult } from './text-to-image.ts';
import type { ToolRequest } from './tools/index.ts';

/** An input image, already normalised by our upload pipeline (orientation applied, metadata stripped). */
export interface InputImage {
  bytes: Buffer;
  /** image/png, image/jpeg or image/webp. */
  contentType: string;
  width: number;
  height: number;
}

// Each tool's request type lives with its vendor mappings in tools/<tool>.ts; the union is built there.
export type { ToolName, ToolRequest } from './tools/index.ts';
export type { AnimateRequest } from './tools/animate.ts';
export type { CopyStyleRequest } from './tools/copy-style.ts';
export type { EditRequest } from './tools/edit.ts';
export type { ProductHoldingRequest } from './tools/product-holding.ts';
export type { UpscaleRequest } from './tools/upscale.ts';

export interface ProviderVideo {
  /** MP4 bytes, downloaded (vendor URLs expire). The pipeline probes size and duration and makes the poster. */
  bytes: Buffer;
  contentType: 'video/mp4';
}

/** An image tool's output: images (like text-to-image), or one video. */
export type ToolResult =
  ({ kind: 'images' } & RunResult) | { kind: 'video'; video: ProviderVideo; seed: number; requestId: string };

export interface ImageToolsProvider {
  readonly name: ProviderName;
  /** False when the vendor has no key configured. */
  readonly available: boolean;
  run(request: ToolRequest, ctx: RunContext): Promise<ToolResult>;
  /** Asks the vendor to cancel; true when it confirms the request had not started. */
  cancel(requestId: string, providerModel: string): Promise<boolean>;
}

export type { ProviderImage };
