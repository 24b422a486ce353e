import Replicate, { parseProgressFromLogs, type Prediction } from 'replicate';
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
 * `ReplicatePredictions` is that cycle for any model; the image tools (replicate.image-tools.ts) share it.
 * See docs/reference/providers/replicate.md.
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

/** What every Replicate adapter is built from. */
export type ReplicateOptions = ReplicateTextToImageOptions;

const VENDOR = 'replicate';

/** Turns a succeeded prediction into the adapter's result (downloading what its output points at). */
export type ReplicateCollect<T> = (prediction: Prediction, signal: AbortSignal) => Promise<T>;

/**
 * One prediction from create to collected output, with resume, progress, cancel, the deadline and
 * error classification; the caller supplies the model's input and how to read its output.
 */
export class ReplicatePredictions {
  readonly fetchFn: typeof fetch;
  private readonly replicate: Replicate;
  private readonly pollIntervalMs: number;
  private readonly timeoutMs: number;

  constructor(options: ReplicateOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 600_000;
    this.fetchFn = options.fetch ?? fetch;
    this.replicate = replicateClient(options, this.fetchFn);
  }

  /**
   * Creates a prediction of `providerModel` with `input()` (or resumes `ctx.resumeRequestId`) and
   * collects its output. `input` is only built when a prediction is created, so a resumed run neither
   * rebuilds nor re-uploads it; any Blob/Buffer in it is uploaded by the client and replaced by its URL.
   */
  async run<T>(
    providerModel: string,
    input: () => Record<string, unknown> | Promise<Record<string, unknown>>,
    ctx: RunContext,
    collect: ReplicateCollect<T>,
  ): Promise<T> {
    return runAtReplicate(ctx, this.timeoutMs, {
      create: async (signal) => {
        const [model, version] = splitModel(providerModel);
        return this.replicate.predictions.create({
          ...(version ? { version } : { model }),
          input: await input(),
          ...(ctx.webhookUrl
            ? { webhook: ctx.webhookUrl, webhook_events_filter: ['start' as const, 'completed' as const] }
            : {}),
          signal,
        });
      },
      follow: (id, scope) => this.follow(id, ctx, scope, collect),
      cancel: (id) => this.replicate.predictions.cancel(id),
    });
  }

  cancel(requestId: string): Promise<boolean> {
    return cancelAtReplicate(() => this.replicate.predictions.cancel(requestId));
  }

  private async follow<T>(
    predictionId: string,
    ctx: RunContext,
    scope: RunScope,
    collect: ReplicateCollect<T>,
  ): Promise<T> {
    const prediction = await pollUntilDone(
      'prediction',
      predictionId,
      (signal) => this.replicate.predictions.get(predictionId, { signal }),
      ctx,
      scope.signal,
      this.pollIntervalMs,
    );
    return collect(prediction, scope.signal);
  }
}

/** The official client as every Replicate adapter sets it up. */
export function replicateClient(options: ReplicateOptions, fetchFn: typeof fetch): Replicate {
  return new Replicate({
    auth: options.apiToken,
    baseUrl: options.baseUrl ?? 'https://api.replicate.com/v1',
    useFileOutput: false,
    // Input files always go through POST /v1/files. The client's default falls back to inlining a
    // data: URI when that upload fails with a 5xx, which would put megabytes into the prediction's
    // stored input; we would rather fail transiently and let the job retry.
    fileEncodingStrategy: 'upload',
    fetch: fetchFn,
  });
}

/**
 * One Replicate run, a prediction or a training. With `ctx.resumeRequestId` it follows that run; one
 * that ended failed or cancelled at Replicate (not refused) is started afresh. Otherwise it creates one
 * and records its id before following it. A run past its deadline is cancelled at Replicate; errors
 * come out classified.
 */
export async function runAtReplicate<T>(
  ctx: RunContext,
  timeoutMs: number,
  run: {
    create(signal: AbortSignal): Promise<{ id: string }>;
    follow(id: string, scope: RunScope): Promise<T>;
    cancel(id: string): Promise<unknown>;
  },
): Promise<T> {
  const scope = new RunScope(ctx.signal, timeoutMs);
  let id = ctx.resumeRequestId;
  try {
    if (id) {
      try {
        return await run.follow(id, scope);
      } catch (error) {
        if (
          !(error instanceof VendorRequestEndedError) ||
          error.kind === 'rejected' ||
          scope.signal.aborted
        ) {
          throw error;
        }
      }
    }
    id = (await run.create(scope.signal)).id;
    await ctx.onSubmitted(id);
    return await run.follow(id, scope);
  } catch (error) {
    const aborted = scope.abortError(VENDOR, error);
    if (aborted) {
      if (aborted.kind === 'timeout' && id) await run.cancel(id).catch(() => undefined);
      throw aborted;
    }
    throw classifyReplicateError(error);
  }
}

/**
 * Asks Replicate to cancel a run; true when it confirms the run had not started. Billing starts when
 * the model or trainer starts: one cancelled while still `starting` has no `started_at`. A 4xx (gone,
 * already ended) is false.
 */
export async function cancelAtReplicate(
  cancel: () => Promise<Pick<Prediction, 'status' | 'started_at'>>,
): Promise<boolean> {
  try {
    const run = await cancel();
    return run.status === 'canceled' && !run.started_at;
  } catch (error) {
    const status = apiStatus(error);
    if (status !== undefined && status >= 400 && status < 500) return false;
    throw classifyReplicateError(error);
  }
}

/** What predictions and trainings share, and all the poll loop reads of them. */
export type ReplicateRunState = Pick<Prediction, 'id' | 'status' | 'logs' | 'error'>;

/**
 * Polls a prediction or a training (`get`) until it ends, reporting progress from its logs: resolves to
 * the succeeded object; a failed, cancelled or vanished one ends the vendor request
 * (VendorRequestEndedError), so a resumed job creates a new one.
 */
export async function pollUntilDone<T extends ReplicateRunState>(
  kind: 'prediction' | 'training',
  id: string,
  get: (signal: AbortSignal) => Promise<T>,
  ctx: RunContext,
  signal: AbortSignal,
  pollIntervalMs: number,
): Promise<T> {
  const report = progressReporter(ctx);
  for (;;) {
    let run: T;
    try {
      run = await get(signal);
    } catch (error) {
      if (apiStatus(error) === 404) {
        throw new VendorRequestEndedError(
          `replicate ${kind} ${id} not found`,
          'transient',
          TRANSIENT_MESSAGE,
          {
            cause: error,
          },
        );
      }
      throw error;
    }
    switch (run.status) {
      case 'starting':
        await report({ status: 'queued' });
        break;
      case 'processing':
        await report(progressOf(run));
        break;
      case 'succeeded':
        return run;
      case 'failed':
        throw failureOf(kind, run);
      case 'canceled':
      case 'aborted':
        throw new VendorRequestEndedError(
          `replicate ${kind} ${id} was ${run.status}`,
          'cancelled',
          CANCELLED_MESSAGE,
        );
    }
    await sleep(pollIntervalMs, signal);
  }
}

/** Both Replicate adapters (text-to-image, image tools) over one ReplicatePredictions. */
export abstract class ReplicateAdapter extends HostedAdapter<'replicate', ReplicatePredictions> {
  constructor(options: ReplicateOptions) {
    super('replicate', new ReplicatePredictions(options));
  }
}

export class ReplicateTextToImage extends ReplicateAdapter implements TextToImageProvider {
  run(request: TextToImageRequest, ctx: RunContext): Promise<RunResult> {
    return this.requests.run(
      request.providerModel,
      () => toReplicateInput(request),
      ctx,
      async (prediction, signal) => ({
        images: await downloadImages(predictionOutputUrls(prediction), this.requests.fetchFn, signal, VENDOR),
        seed: seedFromLogs(prediction) ?? request.seed,
        requestId: prediction.id,
      }),
    );
  }

  cancel(requestId: string): Promise<boolean> {
    return this.requests.cancel(requestId);
  }
}

/** The URLs in a succeeded prediction's output; transient (run it again) when there are none. */
export function predictionOutputUrls(prediction: Prediction): string[] {
  const urls = outputUrls(prediction.output);
  if (urls.length === 0) {
    throw new VendorRequestEndedError(
      `replicate prediction ${prediction.id} succeeded without output${prediction.data_removed ? ' (data removed)' : ''}`,
      'transient',
      TRANSIENT_MESSAGE,
    );
  }
  return urls;
}

/** The seed a FLUX-style model reports in its logs ("Using seed: 123"), when it does. */
export function seedFromLogs(prediction: Prediction): number | undefined {
  const seed = /Using seed: (\d+)/.exec(prediction.logs ?? '')?.[1];
  return seed !== undefined ? Number(seed) : undefined;
}

/** `owner/name` runs the model's latest (official) version; `owner/name:versionhash` a fixed one. */
function splitModel(providerModel: string): [string, string | undefined] {
  const [model, version] = providerModel.split(':', 2);
  return [model!, version || undefined];
}

function isVersion(providerModel: string): boolean {
  return splitModel(providerModel)[1] !== undefined;
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
    // A trained version carries its LoRA; an official LoRA-taking model is given the weights' URL.
    ...(request.lora && !isVersion(request.providerModel) ? { lora_weights: request.lora.url } : {}),
    ...(loraScale !== undefined && (request.lora || request.loraScale !== undefined)
      ? { lora_scale: loraScale }
      : {}),
  };
}

function progressOf(run: ReplicateRunState) {
  const lines = (run.logs ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.at(-1);
  const parsed = parseProgressFromLogs(run.logs ?? '');
  const percent = parsed ? Math.round(parsed.percentage * 100) : line ? percentFromLog(line) : undefined;
  return {
    status: 'running' as const,
    ...(line ? { message: line } : {}),
    ...(percent !== undefined ? { percent } : {}),
  };
}

function failureOf(kind: 'prediction' | 'training', run: ReplicateRunState): ProviderError {
  const error = typeof run.error === 'string' ? run.error : JSON.stringify(run.error ?? 'unknown');
  if (CONTENT_POLICY.test(error)) {
    return new VendorRequestEndedError(
      `replicate ${kind} ${run.id} failed: ${error}`,
      'rejected',
      `The provider refused this prompt: ${error}`,
    );
  }
  if (kind === 'training') {
    // A training fails on what it was given (no usable face, too few steps) far more often than on
    // a hiccup: another try would pay for the same failure. The person reads the trainer's reason.
    return new VendorRequestEndedError(
      `replicate training ${run.id} failed: ${error}`,
      'rejected',
      `The trainer could not train on these photos: ${error}`,
    );
  }
  return new VendorRequestEndedError(
    `replicate ${kind} ${run.id} failed: ${error}`,
    'transient',
    TRANSIENT_MESSAGE,
  );
}

/** Normalizes `string | string[] | {…}` output to the file URLs in it, in order. */
export function outputUrls(output: unknown): string[] {
  if (typeof output === 'string') return /^(https?:|data:)/.test(output) ? [output] : [];
  if (Array.isArray(output)) return output.flatMap(outputUrls);
  if (output && typeof output === 'object') return Object.values(output).flatMap(outputUrls);
  return [];
}

export function apiStatus(error: unknown): number | undefined {
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

/** What a caller may set over the options from config (tests and the worker's polling). */
export type ReplicateOverrides = Partial<Omit<ReplicateOptions, 'apiToken'>>;

/** Replicate's options from config with `overrides` over them; undefined when `REPLICATE_API_TOKEN` is unset. */
export function replicateOptions(config: Pick<Config, 'providers'>, overrides?: ReplicateOverrides) {
  const { replicate, timeoutSeconds } = config.providers;
  if (!replicate.apiToken) return undefined;
  return {
    apiToken: replicate.apiToken,
    baseUrl: replicate.baseUrl,
    timeoutMs: timeoutSeconds * 1000,
    ...overrides,
  };
}

/** The Replicate adapter from config, or undefined when `REPLICATE_API_TOKEN` is unset. */
export function createReplicateTextToImage(
  config: Pick<Config, 'providers'>,
  overrides?: ReplicateOverrides,
) {
  const options = replicateOptions(config, overrides);
  return options && new ReplicateTextToImage(options);
}
