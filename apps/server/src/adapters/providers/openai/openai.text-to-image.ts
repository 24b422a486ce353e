import { randomUUID } from 'node:crypto';
import OpenAI, { APIError, toFile } from 'openai';
import type { Config } from '../../../config.ts';
import { CONTENT_POLICY, decodeBase64Images, RunScope, TRANSIENT_MESSAGE } from '../hosted.ts';
import type { ImageToolsProvider, InputImage, ToolRequest, ToolResult } from '../image-tools.ts';
import {
  ProviderError,
  type ProviderImage,
  type RunContext,
  type RunResult,
  type TextToImageProvider,
  type TextToImageRequest,
} from '../text-to-image.ts';

/**
 * OpenAI Images (the `gpt-image-1` family) through the official `openai` SDK: text-to-image with
 * `images.generate` (JSON) and edit with `images.edit` (multipart, the image as a `toFile` upload).
 * GPT image models always answer `b64_json`, which we decode; there is no URL to download.
 * See docs/reference/providers/self-hosted.md part A.
 *
 * Both calls are synchronous: the answer carries the images. There is no request to record before it
 * and none to resume afterwards, so `onSubmitted` is not called and a retried job simply asks again
 * (credits are per job, so that costs the person nothing more). The SDK's own retries are off
 * (`maxRetries: 0`): our job queue retries, with its limits and backoff.
 *
 * gpt-image models take three sizes only (1024², 1536×1024, 1024×1536) and no seed or negative prompt:
 * the catalogue offers their three aspect ratios, and the request's ratio picks the nearest size.
 */

export interface OpenAIImagesOptions {
  /** `OPENAI_API_KEY`. */
  apiKey: string;
  /** API base including `/v1` (`OPENAI_BASE_URL`: a proxy, or a fake in tests). */
  baseUrl?: string;
  /** Overall deadline for one call. Default 10 minutes. */
  timeoutMs?: number;
  /** Used by the SDK (tests pass one that refuses non-local hosts). */
  fetch?: typeof fetch;
  /** Where problems only the operator can fix (a refused key) are reported. */
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export type OpenAIOverrides = Partial<Omit<OpenAIImagesOptions, 'apiKey' | 'baseUrl'>>;

const VENDOR = 'openai';

/** The sizes gpt-image models make. */
export const OPENAI_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;
export type OpenAISize = (typeof OPENAI_SIZES)[number];

/** The gpt-image size whose aspect ratio is nearest width × height. */
export function openaiSize(width: number, height: number): OpenAISize {
  const target = Math.log(width / height);
  let best: OpenAISize = '1024x1024';
  let bestDistance = Infinity;
  for (const size of OPENAI_SIZES) {
    const [w, h] = size.split('x').map(Number) as [number, number];
    const distance = Math.abs(Math.log(w / h) - target);
    if (distance < bestDistance) [best, bestDistance] = [size, distance];
  }
  return best;
}

/** Both OpenAI adapters (text-to-image, edit) over one client. */
export abstract class OpenAIAdapter {
  readonly name = 'openai' as const;
  readonly available = true;
  protected readonly client: OpenAI;
  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAIImagesOptions) {
    this.timeoutMs = options.timeoutMs ?? 600_000;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      maxRetries: 0,
      timeout: this.timeoutMs,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /** Nothing to cancel at OpenAI: a call either answered or was aborted with the job. */
  cancel(): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** One call with the run's deadline and cancel signal; its images decoded, errors classified. */
  protected async call(
    ctx: RunContext,
    send: (signal: AbortSignal) => Promise<{ data: OpenAI.ImagesResponse; request_id: string | null }>,
  ): Promise<{ images: ProviderImage[]; requestId: string }> {
    const scope = new RunScope(ctx.signal, this.timeoutMs);
    try {
      await ctx.onProgress({ status: 'running', message: 'OpenAI is drawing the image' });
      const { data, request_id } = await send(scope.signal);
      const b64 = (data.data ?? []).map((d) => d.b64_json).filter((b): b is string => Boolean(b));
      if (b64.length === 0) {
        throw new ProviderError(
          `${VENDOR}: the answer held no b64_json images`,
          'transient',
          TRANSIENT_MESSAGE,
        );
      }
      return {
        images: await decodeBase64Images(b64, VENDOR),
        requestId: request_id ?? `openai-${randomUUID()}`,
      };
    } catch (error) {
      const aborted = scope.abortError(VENDOR, error);
      if (aborted) throw aborted;
      throw this.classify(error);
    }
  }

  private classify(error: unknown): ProviderError {
    if (error instanceof ProviderError) return error;
    if (error instanceof APIError && error.status !== undefined) {
      const status = error.status;
      const body = (error.error ?? {}) as { message?: unknown; code?: unknown };
      const message = typeof body.message === 'string' ? body.message : error.message;
      const code =
        typeof error.code === 'string' ? error.code : typeof body.code === 'string' ? body.code : '';
      if (
        status === 400 &&
        (code === 'moderation_blocked' || code === 'content_policy_violation' || CONTENT_POLICY.test(message))
      ) {
        return new ProviderError(
          `${VENDOR}: refused by moderation (${code || status}): ${message}`,
          'rejected',
          'OpenAI’s safety system refused this request. Try describing it differently.',
          { cause: error },
        );
      }
      if (status === 401 || status === 403) {
        // Transient for the job (the operator can fix the key and the retry then works), loud for the operator.
        this.options.log?.error(
          { vendor: VENDOR, status, code },
          'OpenAI refused the API key: check OPENAI_API_KEY (and the organisation’s access to image models)',
        );
        // OpenAI's message quotes part of the key: not kept in ours (it reaches the job's log line).
        return new ProviderError(
          `${VENDOR}: ${status} ${code || 'unauthorised'}`,
          'transient',
          TRANSIENT_MESSAGE,
        );
      }
      if (status === 408 || status === 409 || status === 429 || status >= 500) {
        return new ProviderError(`${VENDOR}: ${status} ${message}`, 'transient', TRANSIENT_MESSAGE, {
          cause: error,
        });
      }
      if (status === 404) {
        this.options.log?.warn({ vendor: VENDOR, status }, `OpenAI does not know this model: ${message}`);
        return new ProviderError(`${VENDOR}: 404 ${message}`, 'transient', TRANSIENT_MESSAGE, {
          cause: error,
        });
      }
      return new ProviderError(
        `${VENDOR}: ${status} ${message}`,
        'rejected',
        `OpenAI could not make this image: ${message}`,
        { cause: error },
      );
    }
    // No answer at all (connection refused or cut, timeout inside the SDK).
    return new ProviderError(`${VENDOR}: ${String(error)}`, 'transient', TRANSIENT_MESSAGE, { cause: error });
  }
}

export class OpenAITextToImage extends OpenAIAdapter implements TextToImageProvider {
  async run(request: TextToImageRequest, ctx: RunContext): Promise<RunResult> {
    const { images, requestId } = await this.call(ctx, (signal) =>
      this.client.images
        .generate(
          {
            model: request.providerModel,
            prompt: request.prompt,
            n: request.numImages,
            size: openaiSize(request.width, request.height),
            output_format: 'png',
          },
          { signal },
        )
        .withResponse(),
    );
    // gpt-image takes no seed: the request's is kept for the recipe.
    return { images, seed: request.seed, requestId };
  }
}

export class OpenAIImageTools extends OpenAIAdapter implements ImageToolsProvider {
  async run(request: ToolRequest, ctx: RunContext): Promise<ToolResult> {
    if (request.tool !== 'edit') {
      throw new ProviderError(
        `openai cannot run ${request.tool}`,
        'rejected',
        'This tool is not available on OpenAI. Choose another model.',
      );
    }
    // gpt-image edits follow the instruction; it has no strength or negative prompt, so those are not sent.
    const image = await toFile(request.image.bytes, fileName(request.image), {
      type: request.image.contentType,
    });
    const { images, requestId } = await this.call(ctx, (signal) =>
      this.client.images
        .edit(
          {
            model: request.providerModel,
            image,
            prompt: request.prompt,
            n: 1,
            size: openaiSize(request.image.width, request.image.height),
            output_format: 'png',
          },
          { signal },
        )
        .withResponse(),
    );
    return { kind: 'images', images, seed: request.seed, requestId };
  }
}

function fileName(image: InputImage): string {
  return `image.${image.contentType === 'image/jpeg' ? 'jpg' : image.contentType === 'image/webp' ? 'webp' : 'png'}`;
}

/** The OpenAI options from config, or undefined when `OPENAI_API_KEY` is unset. */
export function openaiOptions(
  config: Pick<Config, 'providers'>,
  overrides?: OpenAIOverrides,
): OpenAIImagesOptions | undefined {
  const { openai, timeoutSeconds } = config.providers;
  if (!openai?.apiKey) return undefined;
  return { apiKey: openai.apiKey, baseUrl: openai.baseUrl, timeoutMs: timeoutSeconds * 1000, ...overrides };
}

export function createOpenAITextToImage(config: Pick<Config, 'providers'>, overrides?: OpenAIOverrides) {
  const options = openaiOptions(config, overrides);
  return options && new OpenAITextToImage(options);
}

export function createOpenAIImageTools(config: Pick<Config, 'providers'>, overrides?: OpenAIOverrides) {
  const options = openaiOptions(config, overrides);
  return options && new OpenAIImageTools(options);
}
