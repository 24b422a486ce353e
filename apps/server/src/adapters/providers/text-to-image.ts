/**
 * The text-to-image capability, one adapter per vendor (local engine, fal.ai, Replicate, and the
 * operator's own ComfyUI or AUTOMATIC1111 server, OpenAI Images). The job
 * handler calls `run`; adapters hide whether the vendor is synchronous, queued or webhook-driven.
 */

export type ProviderName = 'local' | 'fal' | 'replicate' | 'comfyui' | 'a1111' | 'openai';

export interface TextToImageRequest {
  /** The vendor's model name (e.g. `fal-ai/flux/dev`, `black-forest-labs/flux-schnell`, `local/aurora`). */
  providerModel: string;
  prompt: string;
  negativePrompt?: string;
  /** Always set: the pipeline picks a random seed when the user leaves it empty, so results are reproducible. */
  seed: number;
  width: number;
  height: number;
  numImages: number;
  /** 0..2: how strongly a LoRA (trained model) applies, for models that accept one. */
  loraScale?: number;
  /** 0..1: how closely the image follows the prompt versus the model's prior/style. */
  promptStrength?: number;
  /** A LoRA to apply (training issue): a URL the provider can fetch, or a local style profile id. */
  lora?: { url: string; scale: number };
}

export interface ProviderImage {
  /** The image bytes, already downloaded: provider URLs expire, we never hot-link them. */
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
}

export interface RunResult {
  images: ProviderImage[];
  /** The seed the provider reports having used (equals the request's unless the vendor overrides). */
  seed: number;
  /** The vendor's request id, for the job's record. */
  requestId: string;
}

export interface ProgressUpdate {
  status: 'queued' | 'running';
  /** Position in the vendor's queue, when it says. */
  queuePosition?: number;
  /** 0..100 when known. */
  percent?: number;
  /** The latest log line the vendor gave (e.g. "step 12/28"). */
  message?: string;
  /**
   * A low-resolution look at the image being made, when the vendor streams one (ComfyUI's preview
   * frames, AUTOMATIC1111's `current_image`): shown as the job's live preview, never stored as an output.
   */
  preview?: { bytes: Buffer; contentType: string };
}

export interface RunContext {
  /** Aborted when the job is cancelled or the worker is shutting down. */
  signal: AbortSignal;
  onProgress(update: ProgressUpdate): void | Promise<void>;
  /**
   * Called once the vendor has accepted the request, before waiting: the pipeline stores the id so a
   * retried job resumes the same request instead of paying twice.
   */
  onSubmitted(requestId: string): void | Promise<void>;
  /** Set when retrying a job whose request was already submitted: poll it instead of submitting again. */
  resumeRequestId?: string;
  /** Where the vendor should post completion (webhook), when configured. */
  webhookUrl?: string;
}

/** A vendor failure, classified so the pipeline knows whether to retry and what to tell the person. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: 'transient' | 'rejected' | 'cancelled' | 'timeout',
    /** A message a person understands ("The provider refused this prompt: …"). */
    readonly userMessage: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = 'ProviderError';
  }
}

export interface TextToImageProvider {
  readonly name: ProviderName;
  /** False when the vendor has no key configured: its models are listed as unavailable. */
  readonly available: boolean;
  run(request: TextToImageRequest, ctx: RunContext): Promise<RunResult>;
  /** Asks the vendor to cancel; true when it confirms the request had not started. */
  cancel(requestId: string, providerModel: string): Promise<boolean>;
}
