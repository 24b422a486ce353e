import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../../../config.ts';
import { decodeBase64Images, RunScope, TRANSIENT_MESSAGE, sleep } from '../hosted.ts';
import { ProviderError, type ProgressUpdate, type ProviderImage, type RunContext } from '../text-to-image.ts';

/**
 * The operator's own AUTOMATIC1111 (or Forge, which keeps its API) server, spoken to with plain `fetch`
 * (there is no SDK). See docs/reference/providers/self-hosted.md part B.
 *
 * Its generation calls (`/sdapi/v1/txt2img`, `/img2img`, `/extra-single-image`) are synchronous: the HTTP
 * request blocks until the images exist. While it blocks we poll `/sdapi/v1/progress` for the percentage
 * and the live preview (`current_image`); cancelling or running past the deadline sends
 * `/sdapi/v1/interrupt`, which makes the blocked request return early, and the run ends cancelled.
 *
 * Request ids: A1111 has none of its own, so we make one and send it as `force_task_id` (the task id its
 * `/internal/progress` reports on). A synchronous call cannot be resumed: the images only ever come back
 * on the request that asked for them. So `onSubmitted` records the task id for the job's record and so a
 * retry knows what the last attempt started, not as something to resume; a retried job (one with
 * `resumeRequestId`) first interrupts that task if the server is still working on it (nobody would read
 * its result, and the GPU runs one task at a time), then submits afresh. Credits are per job, never per
 * vendor request, so a fresh submission costs the person nothing more.
 */

export interface A1111Options {
  /** The server's base URL (`A1111_URL`), without a trailing slash. */
  baseUrl: string;
  /** `user:pass` of `--api-auth` (`A1111_AUTH`), sent as HTTP Basic. */
  auth?: string;
  /** How often `/sdapi/v1/progress` is polled while a call blocks. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Overall deadline for one run. Default 10 minutes. */
  timeoutMs?: number;
  /** Used for every call (tests pass one that refuses non-local hosts). */
  fetch?: typeof fetch;
  /** Where problems only the operator can fix (wrong credentials, API not enabled) are reported. */
  log?: { warn(obj: object, msg: string): void };
}

export type A1111Overrides = Partial<Omit<A1111Options, 'baseUrl' | 'auth'>>;

const VENDOR = 'a1111';
/** How long an interrupt may take before we stop waiting for it. */
const INTERRUPT_TIMEOUT_MS = 5000;

/** `/sdapi/v1/progress`, the parts we read. */
interface A1111Progress {
  progress?: number;
  state?: { job_count?: number; sampling_step?: number; sampling_steps?: number; interrupted?: boolean };
  current_image?: string | null;
  textinfo?: string | null;
}

/** What txt2img and img2img answer. `info` is a JSON string (seed, all_seeds, index_of_first_image…). */
export interface A1111ImagesResponse {
  images?: string[];
  info?: string;
}

export class A1111Api {
  private readonly fetchFn: typeof fetch;
  private readonly pollIntervalMs: number;
  private readonly timeoutMs: number;
  /** Runs of this process still blocked on the server, by task id: `cancel` aborts them. */
  private readonly inFlight = new Map<string, AbortController>();

  constructor(private readonly options: A1111Options) {
    this.fetchFn = options.fetch ?? fetch;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 600_000;
  }

  /**
   * One blocking call (`path` with `body`), reporting progress and previews while it runs. Resolves to
   * the server's JSON answer; every failure comes out as a ProviderError.
   */
  async run<T>(
    path: string,
    body: Record<string, unknown>,
    ctx: RunContext,
  ): Promise<{ taskId: string; answer: T }> {
    const own = new AbortController();
    const scope = new RunScope(AbortSignal.any([ctx.signal, own.signal]), this.timeoutMs);
    const taskId = `lumina-${randomUUID()}`;
    try {
      if (ctx.resumeRequestId) {
        // The earlier attempt's task, if still running or queued, would run ahead of this one. Long
        // over, it may be someone else's task running now: a server that cannot say is left alone.
        await this.stopTask(ctx.resumeRequestId, scope.signal, { ifUnknown: 'leave' }).catch((error) => {
          // A server that is down: the new submission will tell.
          if (scope.signal.aborted) throw error;
        });
      }
      await ctx.onSubmitted(taskId);
      this.inFlight.set(taskId, own);
      const call = this.request('POST', path, { ...body, force_task_id: taskId }, scope.signal);
      // Progress is read beside the blocked call; a failure to record it (the database) is kept and
      // rethrown once the call is over, never left as an unhandled rejection meanwhile.
      const watching = this.watch(call, ctx, scope.signal).then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      let outcome: { answer: T } | { error: unknown };
      try {
        outcome = { answer: await this.json<T>(await call, path) };
      } catch (error) {
        outcome = { error };
      }
      const failed = await watching;
      if ('error' in outcome) throw outcome.error;
      if (failed) throw failed.error;
      return { taskId, answer: outcome.answer };
    } catch (error) {
      const aborted = scope.abortError(VENDOR, error);
      if (aborted) {
        // The GPU would otherwise finish a picture nobody will see (and make the next one wait).
        // Our request is still open here, so a server too old to say is running ours (or queued it).
        await this.stopTask(taskId, AbortSignal.timeout(INTERRUPT_TIMEOUT_MS), {
          ifUnknown: 'interrupt',
        }).catch(() => undefined);
        throw aborted;
      }
      throw this.classify(error, path);
    } finally {
      this.inFlight.delete(taskId);
    }
  }

  /**
   * Stops a task of ours this process is running. Always false: the server starts a task as soon as it
   * is received (one at a time per GPU), so nothing is ever confirmed as not started. A task run by
   * another worker process is stopped by that worker, whose cancel watch aborts the run (interrupting it).
   */
  cancel(taskId: string): Promise<boolean> {
    this.inFlight.get(taskId)?.abort();
    return Promise.resolve(false);
  }

  /** `POST /sdapi/v1/interrupt`: ends the step loop of whatever the server is running now. */
  async interrupt(): Promise<void> {
    const res = await this.request(
      'POST',
      '/sdapi/v1/interrupt',
      {},
      AbortSignal.timeout(INTERRUPT_TIMEOUT_MS),
    );
    await res.body?.cancel();
  }

  /**
   * Stops a task of ours. `/sdapi/v1/interrupt` stops whatever the server is running, which may be
   * someone else's task when ours is still waiting for the GPU; so ask `/internal/progress` (A1111 1.6+,
   * Forge) whether our task (`force_task_id`) is the one running, and interrupt only then. One still
   * queued is interrupted as soon as it starts. A server too old to say is interrupted or left alone,
   * as the caller knows best (`ifUnknown`).
   */
  private async stopTask(
    taskId: string,
    signal: AbortSignal,
    opts: { ifUnknown: 'interrupt' | 'leave' },
  ): Promise<void> {
    const state = await this.taskState(taskId, signal);
    if (state === 'running' || (state === 'unknown' && opts.ifUnknown === 'interrupt')) {
      await this.interrupt();
    } else if (state === 'queued') this.interruptOnceStarted(taskId);
  }

  /**
   * A task of ours that nobody waits for any more but that is still queued: A1111 cannot take a task
   * off its queue, and it runs a request even after its client has gone. So watch it in the background
   * and interrupt it the moment it starts, rather than let the GPU make a picture nobody will see. The
   * watch ends when the task has run or at the run's deadline, never keeps the process alive, and
   * never throws (a server gone meanwhile simply ends it).
   */
  private interruptOnceStarted(taskId: string): void {
    const deadline = Date.now() + this.timeoutMs;
    void (async () => {
      while (Date.now() < deadline) {
        await delay(this.pollIntervalMs, undefined, { ref: false });
        const state = await this.taskState(taskId, AbortSignal.timeout(INTERRUPT_TIMEOUT_MS));
        if (state === 'running') return this.interrupt();
        if (state !== 'queued') return;
      }
    })().catch(() => undefined);
  }

  /**
   * What `/internal/progress` says of a task: `running`, `queued` (waiting for the GPU), `done` (ended,
   * or never seen), or `unknown` when the server cannot say (older versions).
   */
  private async taskState(
    taskId: string,
    signal: AbortSignal,
  ): Promise<'running' | 'queued' | 'done' | 'unknown'> {
    const res = await this.request(
      'POST',
      '/internal/progress',
      { id_task: taskId, id_live_preview: -1 },
      signal,
    );
    if (!res.ok) {
      await res.body?.cancel();
      return 'unknown';
    }
    const state = (await res.json()) as { active?: unknown; queued?: unknown };
    if (typeof state.active !== 'boolean') return 'unknown';
    return state.active ? 'running' : state.queued === true ? 'queued' : 'done';
  }

  /**
   * Polls progress until `call` settles, forwarding percent, step and new previews. `/sdapi/v1/progress`
   * describes whatever the server is running: with one Lumina worker per GPU (the setup we document)
   * that is our call; a person using the server's own UI meanwhile would show through.
   */
  private async watch(call: Promise<Response>, ctx: RunContext, signal: AbortSignal): Promise<void> {
    let done = false;
    void call.then(
      () => (done = true),
      () => (done = true),
    );
    let lastKey = '';
    let lastImage: string | undefined;
    await ctx.onProgress({ status: 'queued' });
    while (!done && !signal.aborted) {
      try {
        await sleep(this.pollIntervalMs, signal);
      } catch {
        return;
      }
      if (done) return;
      let progress: A1111Progress;
      try {
        const res = await this.request(
          'GET',
          '/sdapi/v1/progress?skip_current_image=false',
          undefined,
          signal,
        );
        if (!res.ok) {
          await res.body?.cancel();
          continue;
        }
        progress = (await res.json()) as A1111Progress;
      } catch {
        continue; // The blocked call reports a dead server; progress is best effort.
      }
      if (done) return;
      const update = progressUpdate(progress);
      const key = JSON.stringify(update);
      const image = progress.current_image || undefined;
      const preview = image && image !== lastImage ? previewOf(image) : undefined;
      if (key === lastKey && !preview) continue;
      lastKey = key;
      if (preview) lastImage = image;
      await ctx.onProgress(preview ? { ...update, preview } : update);
    }
  }

  private request(method: string, path: string, body: unknown, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.options.auth)
      headers.authorization = `Basic ${Buffer.from(this.options.auth).toString('base64')}`;
    return this.fetchFn(`${this.options.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal,
    });
  }

  private async json<T>(res: Response, path: string): Promise<T> {
    const text = await res.text();
    if (!res.ok) throw new A1111HttpError(res.status, text, path);
    try {
      return JSON.parse(text) as T;
    } catch (cause) {
      throw new ProviderError(`${VENDOR}: ${path} answered non-JSON`, 'transient', TRANSIENT_MESSAGE, {
        cause,
      });
    }
  }

  private classify(error: unknown, path: string): ProviderError {
    if (error instanceof ProviderError) return error;
    if (error instanceof A1111HttpError) {
      const { status, detail } = error;
      if (status === 401 || status === 403) {
        this.options.log?.warn(
          { vendor: VENDOR, status },
          'AUTOMATIC1111 refused our credentials: check A1111_AUTH against the server’s --api-auth',
        );
        return new ProviderError(`${VENDOR}: ${path} answered ${status}`, 'transient', TRANSIENT_MESSAGE);
      }
      if (status === 404 && (detail === 'Not Found' || detail === '')) {
        this.options.log?.warn(
          { vendor: VENDOR, status, path },
          'AUTOMATIC1111 has no such API route: start it with --api (and check A1111_URL)',
        );
        return new ProviderError(`${VENDOR}: ${path} not found`, 'transient', TRANSIENT_MESSAGE);
      }
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        // The same body would be refused again (unknown sampler, invalid field): not worth a retry.
        return new ProviderError(
          `${VENDOR}: ${path} refused with ${status}: ${detail}`,
          'rejected',
          `Your image server refused this request: ${sentence(detail || `HTTP ${status}`)}`,
        );
      }
      return new ProviderError(
        `${VENDOR}: ${path} failed with ${status}: ${detail}`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    // The connection failed or was cut (server down, restarted, crashed mid-job).
    return new ProviderError(`${VENDOR}: ${path} failed: ${String(error)}`, 'transient', TRANSIENT_MESSAGE, {
      cause: error,
    });
  }
}

/** A non-2xx answer, with the readable part of A1111's error body (`detail`, or `error: errors`). */
class A1111HttpError extends Error {
  readonly detail: string;

  constructor(
    readonly status: number,
    body: string,
    path: string,
  ) {
    super(`${path} answered ${status}`);
    this.detail = errorDetail(body);
  }
}

/** Ends a vendor's phrase with a full stop (the pipeline appends its own sentence after it). */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

function errorDetail(body: string): string {
  try {
    const json = JSON.parse(body) as { detail?: unknown; error?: unknown; errors?: unknown };
    if (typeof json.detail === 'string' && json.detail) return json.detail;
    if (Array.isArray(json.detail)) {
      return json.detail
        .map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).slice(1).join('.')}: ${d.msg ?? ''}`)
        .join('; ');
    }
    const parts = [json.error, json.errors].filter((p) => typeof p === 'string' && p);
    return parts.join(': ');
  } catch {
    return body.slice(0, 200);
  }
}

function progressUpdate(progress: A1111Progress): ProgressUpdate {
  const state = progress.state ?? {};
  const running = (state.job_count ?? 0) > 0 || (progress.progress ?? 0) > 0;
  if (!running) return { status: 'queued' };
  const steps = state.sampling_steps ?? 0;
  return {
    status: 'running',
    percent: Math.max(0, Math.min(100, Math.round((progress.progress ?? 0) * 100))),
    ...(steps > 0 ? { message: `step ${state.sampling_step ?? 0}/${steps}` } : {}),
  };
}

/** A base64 PNG (with or without a `data:` prefix) as a preview. */
function previewOf(image: string): ProgressUpdate['preview'] {
  const match = /^data:([^;]+);base64,/.exec(image);
  return {
    bytes: Buffer.from(match ? image.slice(match[0].length) : image, 'base64'),
    contentType: match?.[1] ?? 'image/png',
  };
}

/**
 * The generated images of a txt2img / img2img answer and their first seed. With more than one image the
 * server puts a grid of them first (`return_grid`); `info.index_of_first_image` says where ours start.
 */
export async function imagesOf(
  answer: A1111ImagesResponse,
  wanted: number,
  fallbackSeed: number,
): Promise<{ images: ProviderImage[]; seed: number }> {
  let info: { seed?: unknown; index_of_first_image?: unknown } = {};
  try {
    info = JSON.parse(answer.info ?? '{}') as typeof info;
  } catch {
    // Some extensions break `info`; the images still count.
  }
  const all = answer.images ?? [];
  const first = typeof info.index_of_first_image === 'number' ? info.index_of_first_image : 0;
  const ours = all.slice(first, first + wanted);
  if (ours.length === 0) {
    throw new ProviderError(`${VENDOR}: the answer held no images`, 'transient', TRANSIENT_MESSAGE);
  }
  return {
    images: await decodeBase64Images(ours, VENDOR),
    seed: typeof info.seed === 'number' && Number.isSafeInteger(info.seed) ? info.seed : fallbackSeed,
  };
}

/** The A1111 options from config, or undefined when `A1111_URL` is unset. */
export function a1111Options(
  config: Pick<Config, 'providers'>,
  overrides?: A1111Overrides,
): A1111Options | undefined {
  const { a1111, timeoutSeconds } = config.providers;
  if (!a1111?.url) return undefined;
  return { baseUrl: a1111.url, auth: a1111.auth, timeoutMs: timeoutSeconds * 1000, ...overrides };
}
