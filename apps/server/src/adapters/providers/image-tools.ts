/**
 * The image-tool capabilities (edit, copy style, product holding, upscale, image-to-video), one
 * adapter per vendor like text-to-image. A request is a discriminated union on `tool`, so the job
 * pipeline has one call to make and each adapter one switch; the run context (cancel signal,
 * progress, submitted request id for resuming) is the text-to-image one.
 */
import type { ProviderImage, ProviderName, RunContext, RunResult } from './text-to-image.ts';

export type ToolName = 'edit' | 'copy_style' | 'product_holding' | 'upscale' | 'animate';

/** An input image, already normalised by our upload pipeline (orientation applied, metadata stripped). */
export interface InputImage {
  bytes: Buffer;
  /** image/png, image/jpeg or image/webp. */
  contentType: string;
  width: number;
  height: number;
}

interface Common {
  /** The vendor's model name (`fal-ai/flux/dev/image-to-image`, `local/edit`…). */
  providerModel: string;
  /** Always set: chosen by the pipeline when the person leaves it empty. */
  seed: number;
}

export interface EditRequest extends Common {
  tool: 'edit';
  image: InputImage;
  prompt: string;
  negativePrompt?: string;
  /** 0.05..1: how far the result may move from the original. */
  strength: number;
}

export interface CopyStyleRequest extends Common {
  tool: 'copy_style';
  /** The image whose style (palette, tone, texture) to copy. */
  style: InputImage;
  /** What the new picture shows. */
  description: string;
}

export interface ProductHoldingRequest extends Common {
  tool: 'product_holding';
  person: InputImage;
  product: InputImage;
  /** One of PRODUCT_ASPECT_RATIOS ("3:4"). */
  aspectRatio: string;
  /** Output size for that ratio (about one megapixel). */
  width: number;
  height: number;
  /** Optional extra direction ("on a beach, smiling"). */
  prompt?: string;
}

export interface UpscaleRequest extends Common {
  tool: 'upscale';
  image: InputImage;
  factor: 2 | 4;
}

export interface AnimateRequest extends Common {
  tool: 'animate';
  image: InputImage;
  prompt?: string;
  /** Seconds of video wanted (one of ANIMATE_DURATIONS). */
  durationSeconds: number;
}

export type ToolRequest =
  EditRequest | CopyStyleRequest | ProductHoldingRequest | UpscaleRequest | AnimateRequest;

export interface ProviderVideo {
  /** MP4 bytes, downloaded (vendor URLs expire). The pipeline probes size and duration and makes the poster. */
  bytes: Buffer;
  contentType: 'video/mp4';
}

/** An image tool's output: images (like text-to-image), or one video for animate. */
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
