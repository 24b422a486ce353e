import Replicate, { parseProgressFromLogs, type Prediction } from 'replicate';
import type { Config } from '../../../config.ts';
import {
  CANCELLED_MESSAGE,
  CONTENT_POLICY,
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
  type RunContext,
  type RunResult,
  type TextToImageProvider,
  type TextToImageRequest,
} from '../text-to-image.ts';

/**
 * Replicate text-to-image over the predictions API, through the official `replicate` client:
 * create (with `webhook` + `webhook_events_filter` when the pipeline has a webhook URL) →
 * `onSubmitted(prediction.id)` → poll `predictions.get` → download every output into memory.
 * Replicate deletes API outputs after about an hour, so we copy them at once.
 * See shared/reference/providers/replicate.md.
 */

export interface ReplicateTextToImageOptions {
  /** `REPLICATE_API_TOKEN`. */
  apiToken: string;
  /** API base including `/v1` (tests point it at a local fake). Default https://api.replicate.com/v1. */
  baseUrl?: string;
  /** Poll interval. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Overall deadline for one run, create to downloaded output. Default 10 minutes. */
  timeoutMs?: number;
  /** Used by the SDK and for downloads (tests pass one that refuses non-local hosts). */
  fetch?: typeof fetch;
}

const VENDOR = 'replicate';

export class ReplicateTextToImage implements TextToImageProvider {
  readonly name = 'replicate' as const;
  readonly available = true;
  private readonly replicate: Replicate;
  private readonly pollIntervalMs: number;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(options: ReplicateTextToImageOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 600_000;
    this.fetchFn = options.fetch ?? fetch;
    this.replicate = new Replicate({
      auth: options.apiToken,
      baseUrl: options.baseUrl ?? 'https://api.replicate.com/v1',
      useFileOutput: false,
      fetch: this.fetchFn,
    });
  }

  async run(request: TextToImageRequest, ctx: RunContext): Promise<RunResult> {
    const scope = new RunScope(ctx.signal, this.timeoutMs);
    let predictionId = ctx.resumeRequestId;
    try {
      if (predictionId) {
        try {
          return await this.follow(predictionId, request, ctx, scope);
        } catch (error) {
          // The earlier prediction failed or was cancelled at Replicate: start a fresh one.
          if (
            !(error instanceof VendorRequestEndedError) ||
            error.kind === 'rejected' ||
            scope.signal.aborted
          ) {
            throw error;
          }
        }
      }
      const [model, version] = splitModel(request.providerModel);
      const prediction = await this.replicate.predictions.create({
        ...(version ? { version } : { model }),
        input: toReplicateInput(request),
        ...(ctx.webhookUrl
          ? { webhook: ctx.webhookUrl, webhook_events_filter: ['start' as const, 'completed' as const] }
          : {}),
        signal: scope.signal,
      });
      predictionId = prediction.id;
      await ctx.onSubmitted(predictionId);
      return await this.follow(predictionId, request, ctx, scope);
    } catch (error) {
      const aborted = scope.abortError(VENDOR, error);
      if (aborted) {
        if (aborted.kind === 'timeout' && predictionId) {
          await this.replicate.predictions.cancel(predictionId).catch(() => undefined);
        }
        throw aborted;
      }
      throw classifyReplicateError(error);
    }
  }

  async cancel(requestId: string): Promise<boolean> {
    try {
      const prediction = await this.replicate.predictions.cancel(requestId);
      // Billing starts when the model starts; a prediction cancelled while still `starting` has no started_at.
      return prediction.status === 'canceled' && !prediction.started_at;
    } catch (error) {
      const status = apiStatus(error);
      if (status !== undefined && status >= 400 && status < 500) return false;
      throw classifyReplicateError(error);
    }
  }

  private async follow(
    predictionId: string,
    request: TextToImageRequest,
    ctx: RunContext,
    scope: RunScope,
  ): Promise<RunResult> {
    const report = progressReporter(ctx);
    for (;;) {
      let prediction: Prediction;
      try {
        prediction = await this.replicate.predictions.get(predictionId, { signal: scope.signal });
      } catch (error) {
        if (apiStatus(error) === 404) {
          throw new VendorRequestEndedError(
            `replicate prediction ${predictionId} not found`,
            'transient',
            TRANSIENT_MESSAGE,
            {
              cause: error,
            },
          );
        }
        throw error;
      }
      switch (prediction.status) {
        case 'starting':
          await report({ status: 'queued' });
          break;
        case 'processing':
          await report(progressOf(prediction));
          break;
        case 'succeeded':
          return this.collect(prediction, request, scope);
        case 'failed':
          throw failureOf(prediction);
        case 'canceled':
        case 'aborted':
          throw new VendorRequestEndedError(
            `replicate prediction ${predictionId} was ${prediction.status}`,
            'cancelled',
            CANCELLED_MESSAGE,
          );
      }
      await sleep(this.pollIntervalMs, scope.signal);
    }
  }

  private async collect(
    prediction: Prediction,
    request: TextToImageRequest,
    scope: RunScope,
  ): Promise<RunResult> {
    const urls = outputUrls(prediction.output);
    if (urls.length === 0) {
      throw new VendorRequestEndedError(
        `replicate prediction ${prediction.id} succeeded without output${prediction.data_removed ? ' (data removed)' : ''}`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    const seed = /Using seed: (\d+)/.exec(prediction.logs ?? '')?.[1];
    return {
      images: await downloadImages(urls, this.fetchFn, scope.signal, VENDOR),
      seed: seed !== undefined ? Number(seed) : request.seed,
      requestId: prediction.id,
    };
  }
}

/** `owner/name` runs the model's latest (official) version; `owner/name:versionhash` a fixed one. */
function splitModel(providerModel: string): [string, string | undefined] {
  const [model, version] = providerModel.split(':', 2);
  return [model!, version || undefined];
}

const ASPECT_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];

/** The supported aspect ratio closest to width × height (FLUX models on Replicate take ratios, not sizes). */
export function nearestAspectRatio(width: number, height: number): string {
  const target = Math.log(width / height);
  let best = '1:1';
  let bestDistance = Infinity;
  for (const ratio of ASPECT_RATIOS) {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    const distance = Math.abs(Math.log(w / h) - target);
    if (distance < bestDistance) [best, bestDistance] = [ratio, distance];
  }
  return best;
}

/** Our request → Replicate's FLUX-style input (`black-forest-labs/flux-dev`, trained FLUX LoRAs). */
export function toReplicateInput(request: TextToImageRequest): Record<string, unknown> {
  const loraScale = request.loraScale ?? request.lora?.scale;
  return {
    prompt: request.prompt,
    ...(request.negativePrompt ? { negative_prompt: request.negativePrompt } : {}),
    aspect_ratio: nearestAspectRatio(request.width, request.height),
    seed: request.seed,
    num_outputs: request.numImages,
    output_format: 'png',
    ...(request.promptStrength !== undefined ? { prompt_strength: request.promptStrength } : {}),
    ...(request.lora ? { lora_weights: request.lora.url } : {}),
    ...(loraScale !== undefined && (request.lora || request.loraScale !== undefined)
      ? { lora_scale: loraScale }
      : {}),
  };
}

function progressOf(prediction: Prediction) {
  const lines = (prediction.logs ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.at(-1);
  const parsed = parseProgressFromLogs(prediction.logs ?? '');
  const percent = parsed ? Math.round(parsed.percentage * 100) : line ? percentFromLog(line) : undefined;
  return {
    status: 'running' as const,
    ...(line ? { message: line } : {}),
    ...(percent !== undefined ? { percent } : {}),
  };
}

function failureOf(prediction: Prediction): ProviderError {
  const error =
    typeof prediction.error === 'string' ? prediction.error : JSON.stringify(prediction.error ?? 'unknown');
  if (CONTENT_POLICY.test(error)) {
    return new VendorRequestEndedError(
      `replicate prediction ${prediction.id} failed: ${error}`,
      'rejected',
      `The provider refused this prompt: ${error}`,
    );
  }
  return new VendorRequestEndedError(
    `replicate prediction ${prediction.id} failed: ${error}`,
    'transient',
    TRANSIENT_MESSAGE,
  );
}

/** Normalizes `string | string[] | {…}` output to the image URLs in it. */
function outputUrls(output: unknown): string[] {
  if (typeof output === 'string') return /^(https?:|data:)/.test(output) ? [output] : [];
  if (Array.isArray(output)) return output.flatMap(outputUrls);
  if (output && typeof output === 'object') return Object.values(output).flatMap(outputUrls);
  return [];
}

function apiStatus(error: unknown): number | undefined {
  if (error instanceof Error && error.name === 'ApiError' && 'response' in error) {
    const response = (error as { response?: unknown }).response;
    if (response instanceof Response) return response.status;
  }
  return undefined;
}

/** The problem-JSON `detail` (or title) the client embeds in its error message. */
function apiDetail(error: Error): string | undefined {
  const body = /: (\{[\s\S]*\})\.?$/.exec(error.message)?.[1];
  if (!body) return undefined;
  try {
    const json = JSON.parse(body) as { detail?: unknown; title?: unknown };
    const detail =
      typeof json.detail === 'string' ? json.detail : typeof json.title === 'string' ? json.title : undefined;
    return detail?.replace(/^-\s*/, '').trim();
  } catch {
    return undefined;
  }
}

/** Maps what the replicate client throws onto our error kinds, with a message a person understands. */
export function classifyReplicateError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = apiStatus(error);
  if (status !== undefined && error instanceof Error) {
    const detail = apiDetail(error) ?? `HTTP ${status}`;
    if (status === 401 || status === 403) {
      return new ProviderError(
        `replicate refused our credentials (HTTP ${status})`,
        'rejected',
        'The image provider is not set up correctly. Please try another model.',
        { cause: error },
      );
    }
    if (status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429) {
      return new ProviderError(
        `replicate answered HTTP ${status}: ${detail}`,
        'rejected',
        CONTENT_POLICY.test(detail)
          ? `The provider refused this prompt: ${detail}`
          : `The provider did not accept these settings (${detail}).`,
        { cause: error },
      );
    }
    return new ProviderError(`replicate answered HTTP ${status}: ${detail}`, 'transient', TRANSIENT_MESSAGE, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`replicate request failed: ${message}`, 'transient', TRANSIENT_MESSAGE, {
    cause: error,
  });
}

/** The Replicate adapter from config, or undefined when `REPLICATE_API_TOKEN` is unset. */
export function createReplicateTextToImage(
  config: Pick<Config, 'providers'>,
  overrides: Partial<Omit<ReplicateTextToImageOptions, 'apiToken'>> = {},
): ReplicateTextToImage | undefined {
  const { replicate, timeoutSeconds } = config.providers;
  if (!replicate.apiToken) return undefined;
  return new ReplicateTextToImage({
    apiToken: replicate.apiToken,
    baseUrl: replicate.baseUrl,
    timeoutMs: timeoutSeconds * 1000,
    ...overrides,
  });
}
