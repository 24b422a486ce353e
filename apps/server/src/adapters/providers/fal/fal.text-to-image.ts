import { ApiError, ValidationError, createFalClient, type FalClient, type QueueStatus } from '@fal-ai/client';
import type { Config } from '../../../config.ts';
import {
  CANCELLED_MESSAGE,
  CONTENT_POLICY,
  HostedAdapter,
  RunScope,
  TRANSIENT_MESSAGE,
  VendorRequestEndedError,
  downloadImages,
  percentFromLog,
  progressReporter,
  sleep,
} from '../hosted.ts';
import {
  ProviderError,
  type ProviderImage,
  type RunContext,
  type RunResult,
  type TextToImageProvider,
  type TextToImageRequest,
} from '../text-to-image.ts';

/**
 * fal.ai text-to-image over the queue API, through the official `@fal-ai/client`:
 * submit (with `fal_webhook` when the pipeline has a webhook URL) → `onSubmitted(request_id)` →
 * poll status with logs → fetch the result → download every image into memory.
 * A retried job passes `resumeRequestId` and we poll that request instead of paying for a new one.
 * `FalQueue` is that cycle for any fal endpoint; the image tools (fal.image-tools.ts) share it.
 * See docs/reference/providers/fal.md.
 */

export interface FalTextToImageOptions {
  /** `FAL_KEY` ("key_id:key_secret"). */
  key: string;
  /**
   * Test-only: the client's hosts are hard-coded, so a `requestMiddleware` rewrites
   * `https://queue.fal.run`, `https://fal.run` and `https://rest.fal.ai` to this base (a local fake).
   */
  baseUrl?: string;
  /** Status poll interval. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Overall deadline for one run, submit to downloaded output. Default 10 minutes. */
  timeoutMs?: number;
  /** Used by the SDK and for downloads (tests pass one that refuses non-local hosts). */
  fetch?: typeof fetch;
}

/** What every fal adapter is built from. */
export type FalOptions = FalTextToImageOptions;

const VENDOR = 'fal';

/** Turns a finished request's output into the adapter's result (downloading what it points at). */
export type FalCollect<T> = (data: unknown, requestId: string, signal: AbortSignal) => Promise<T>;

/**
 * One fal queue request from submit to collected output, with resume, progress, cancel, the deadline
 * and error classification; the caller supplies the endpoint's input and how to read its output.
 */
export class FalQueue {
  readonly fetchFn: typeof fetch;
  private readonly fal: FalClient;
  private readonly pollIntervalMs: number;
  private readonly timeoutMs: number;

  constructor(options: FalOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 600_000;
    this.fetchFn = options.fetch ?? fetch;
    const base = options.baseUrl?.replace(/\/$/, '');
    this.fal = createFalClient({
      credentials: options.key,
      fetch: this.fetchFn,
      ...(base
        ? {
            requestMiddleware: async (req) => ({
              ...req,
              url: req.url
                .replace(/^https:\/\/queue\.fal\.run/, base)
                .replace(/^https:\/\/fal\.run/, `${base}/_sync`)
                .replace(/^https:\/\/rest(\.alpha)?\.fal\.ai/, base),
            }),
          }
        : {}),
    });
  }

  /**
   * Submits `input()` to `endpoint` (or resumes `ctx.resumeRequestId`) and collects the output. `input`
   * is only built when a request is submitted, so a resumed run neither rebuilds nor re-uploads it; any
   * Blob in it is uploaded to fal storage by the client and replaced by its URL.
   */
  async run<T>(
    endpoint: string,
    input: () => Record<string, unknown> | Promise<Record<string, unknown>>,
    ctx: RunContext,
    collect: FalCollect<T>,
  ): Promise<T> {
    const scope = new RunScope(ctx.signal, this.timeoutMs);
    let requestId = ctx.resumeRequestId;
    try {
      if (requestId) {
        try {
          return await this.follow(endpoint, requestId, ctx, scope, collect);
        } catch (error) {
          // The earlier request failed or was cancelled at fal: start a fresh one. Anything else
          // (network trouble, a refusal, our own cancel/deadline) is reported as is.
          if (
            !(error instanceof VendorRequestEndedError) ||
            error.kind === 'rejected' ||
            scope.signal.aborted
          ) {
            throw error;
          }
        }
      }
      const submitted = await this.fal.queue.submit(endpoint, {
        input: await input(),
        webhookUrl: ctx.webhookUrl,
        abortSignal: scope.signal,
      });
      requestId = submitted.request_id;
      await ctx.onSubmitted(requestId);
      return await this.follow(endpoint, requestId, ctx, scope, collect);
    } catch (error) {
      const aborted = scope.abortError(VENDOR, error);
      if (aborted) {
        if (aborted.kind === 'timeout' && requestId) {
          // Like the SDK's own subscribe timeout: stop paying for a request nobody waits for.
          await this.fal.queue.cancel(endpoint, { requestId }).catch(() => undefined);
        }
        throw aborted;
      }
      throw classifyFalError(error);
    }
  }

  async cancel(requestId: string, endpoint: string): Promise<boolean> {
    try {
      const status = await this.fal.queue.status(endpoint, { requestId });
      if (status.status === 'COMPLETED') return false;
      await this.fal.queue.cancel(endpoint, { requestId });
      // fal removes queued requests; a running one only gets a signal its model may ignore.
      return status.status === 'IN_QUEUE';
    } catch (error) {
      // 404 (unknown) or 400 (already completed): nothing was cancelled.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
      throw classifyFalError(error);
    }
  }

  /** Polls a submitted request to completion, then fetches and collects its result. */
  private async follow<T>(
    endpoint: string,
    requestId: string,
    ctx: RunContext,
    scope: RunScope,
    collect: FalCollect<T>,
  ): Promise<T> {
    const report = progressReporter(ctx);
    for (;;) {
      let status: QueueStatus;
      try {
        status = await this.fal.queue.status(endpoint, { requestId, logs: true, abortSignal: scope.signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          throw new VendorRequestEndedError(
            `fal request ${requestId} not found`,
            'transient',
            TRANSIENT_MESSAGE,
            { cause: error },
          );
        }
        throw error;
      }
      if (status.status === 'COMPLETED') break;
      if (status.status === 'IN_QUEUE') {
        await report({ status: 'queued', queuePosition: status.queue_position });
      } else {
        const line = status.logs?.at(-1)?.message?.trim();
        const percent = line ? percentFromLog(line) : undefined;
        await report({
          status: 'running',
          ...(line ? { message: line } : {}),
          ...(percent !== undefined ? { percent } : {}),
        });
      }
      await sleep(this.pollIntervalMs, scope.signal);
    }

    let data: unknown;
    try {
      ({ data } = await this.fal.queue.result(endpoint, { requestId, abortSignal: scope.signal }));
    } catch (error) {
      if (scope.signal.aborted) throw error;
      // The request is COMPLETED at fal, so an error here is that request's final outcome.
      const classified = classifyFalError(error);
      throw new VendorRequestEndedError(classified.message, classified.kind, classified.userMessage, {
        cause: error,
      });
    }
    return collect(data, requestId, scope.signal);
  }
}

/** Both fal adapters (text-to-image, image tools) over one FalQueue. */
export abstract class FalAdapter extends HostedAdapter<'fal', FalQueue> {
  constructor(options: FalOptions) {
    super('fal', new FalQueue(options));
  }
}

export class FalTextToImage extends FalAdapter implements TextToImageProvider {
  run(request: TextToImageRequest, ctx: RunContext): Promise<RunResult> {
    return this.requests.run(
      request.providerModel,
      () => toFalInput(request),
      ctx,
      async (output, requestId, signal) => {
        const data = output as FalImageOutput;
        return {
          images: await falImages(
            data.images ?? [],
            data.has_nsfw_concepts,
            requestId,
            this.requests.fetchFn,
            signal,
          ),
          seed: typeof data.seed === 'number' ? data.seed : request.seed,
          requestId,
        };
      },
    );
  }

  cancel(requestId: string, providerModel: string): Promise<boolean> {
    return this.requests.cancel(requestId, providerModel);
  }
}

/**
 * Downloads a request's images, leaving out the ones fal's safety checker flagged; refused when it
 * flagged every one, transient when there were none (the request must be run again).
 */
export async function falImages(
  images: FalImage[],
  nsfwFlags: boolean[] | undefined,
  requestId: string,
  fetchFn: typeof fetch,
  signal: AbortSignal,
): Promise<ProviderImage[]> {
  const flags = nsfwFlags ?? [];
  const safe = images.filter((_, i) => flags[i] !== true);
  if (images.length > 0 && safe.length === 0) {
    throw new VendorRequestEndedError(
      `fal request ${requestId}: every image was flagged by the safety checker`,
      'rejected',
      "The provider's safety checker blocked this image. Try rewording the prompt.",
    );
  }
  if (safe.length === 0) {
    throw new VendorRequestEndedError(
      `fal request ${requestId} returned no images`,
      'transient',
      TRANSIENT_MESSAGE,
    );
  }
  return downloadImages(
    safe.map((image) => image.url),
    fetchFn,
    signal,
    VENDOR,
  );
}

/** fal's Image / File output type (a URL on fal's CDN, plus what fal knows about it). */
export interface FalImage {
  url: string;
  width?: number;
  height?: number;
  content_type?: string;
}

interface FalImageOutput {
  images?: FalImage[];
  seed?: number;
  has_nsfw_concepts?: boolean[];
}

/**
 * Our request → fal's text-to-image input (`fal-ai/flux/dev`, `fal-ai/flux-lora` and kin).
 * `promptStrength` (0..1) maps linearly onto `guidance_scale` 1.5..7.5 (0.33 ≈ flux's default 3.5).
 */
export function toFalInput(request: TextToImageRequest): Record<string, unknown> {
  return {
    prompt: request.prompt,
    ...(request.negativePrompt ? { negative_prompt: request.negativePrompt } : {}),
    image_size: { width: request.width, height: request.height },
    seed: request.seed,
    num_images: request.numImages,
    output_format: 'png',
    enable_safety_checker: true,
    ...(request.promptStrength !== undefined
      ? { guidance_scale: Math.round((1.5 + 6 * request.promptStrength) * 100) / 100 }
      : {}),
    ...(request.lora
      ? { loras: [{ path: request.lora.url, scale: request.loraScale ?? request.lora.scale }] }
      : {}),
  };
}

/** Maps what the fal client throws onto our error kinds, with a message a person understands. */
export function classifyFalError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof ValidationError) {
    const fields = error.fieldErrors;
    const text = fields.map((f) => `${f.loc.filter((l) => l !== 'body').join('.')}: ${f.msg}`).join('; ');
    const policy = fields.some((f) => CONTENT_POLICY.test(`${f.type} ${f.msg}`));
    return new ProviderError(
      `fal refused the input (422): ${text || error.message}`,
      'rejected',
      policy
        ? `The provider refused this prompt: ${fields.map((f) => f.msg).join(' ') || 'it breaks the content policy'}`
        : `The provider did not accept these settings (${text || 'invalid input'}).`,
      { cause: error },
    );
  }
  if (error instanceof ApiError) {
    const detail = detailOf(error.body) ?? error.message;
    if (/cancel/i.test(`${detail} ${errorType(error.body) ?? ''}`)) {
      return new VendorRequestEndedError(`fal: ${detail}`, 'cancelled', CANCELLED_MESSAGE, { cause: error });
    }
    if (error.status === 401 || error.status === 403) {
      return new ProviderError(
        `fal refused our credentials (HTTP ${error.status})`,
        'rejected',
        'The image provider is not set up correctly. Please try another model.',
        { cause: error },
      );
    }
    if (error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) {
      const policy = CONTENT_POLICY.test(detail);
      return new ProviderError(
        `fal answered HTTP ${error.status}: ${detail}`,
        'rejected',
        policy
          ? `The provider refused this prompt: ${detail}`
          : `The provider could not run this request: ${detail}`,
        { cause: error },
      );
    }
    return new ProviderError(`fal answered HTTP ${error.status}: ${detail}`, 'transient', TRANSIENT_MESSAGE, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`fal request failed: ${message}`, 'transient', TRANSIENT_MESSAGE, {
    cause: error,
  });
}

function detailOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { detail, message, error } = body as Record<string, unknown>;
  for (const value of [detail, message, error]) if (typeof value === 'string' && value) return value;
  return undefined;
}

function errorType(body: unknown): string | undefined {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>).error_type : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** What a caller may set over the options from config (tests and the worker's polling). */
export type FalOverrides = Partial<Omit<FalOptions, 'key'>>;

/** fal's options from config with `overrides` over them; undefined when `FAL_KEY` is unset. */
export function falOptions(
  config: Pick<Config, 'providers'>,
  overrides?: FalOverrides,
): FalOptions | undefined {
  const { fal, timeoutSeconds } = config.providers;
  if (!fal.key) return undefined;
  return { key: fal.key, baseUrl: fal.baseUrl, timeoutMs: timeoutSeconds * 1000, ...overrides };
}

/** The fal adapter from config, or undefined when `FAL_KEY` is unset (its models are then unavailable). */
export function createFalTextToImage(config: Pick<Config, 'providers'>, overrides?: FalOverrides) {
  const options = falOptions(config, overrides);
  return options && new FalTextToImage(options);
}
