import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import WebSocket from 'ws';
import type { Config } from '../../../config.ts';
import { downloadImages, RunScope, TRANSIENT_MESSAGE, VendorRequestEndedError } from '../hosted.ts';
import type { InputImage } from '../image-tools.ts';
import { ProviderError, type ProgressUpdate, type ProviderImage, type RunContext } from '../text-to-image.ts';
import { fillWorkflow, loadWorkflows, WorkflowError, type SlotValues, type Workflow } from './workflows.ts';

/**
 * One ComfyUI server, spoken to as its own UI does (docs/reference/providers/self-hosted.md §C):
 * inputs uploaded with POST /upload/image, the filled workflow submitted with POST /prompt and a
 * client id, progress followed on the WebSocket /ws?clientId= (step `progress` events → our percent,
 * binary preview frames → live previews), outputs read from /history/{id} and /view, cancel with
 * POST /interrupt (running) or POST /queue {delete} (pending).
 *
 * The request id we record is `<prompt id>.<client id>`: a retried job reconnects with the same client
 * id (ComfyUI sends a prompt's events to the socket of the client that submitted it) and follows the
 * same prompt instead of submitting it twice. /history is polled alongside the socket, so a prompt
 * that finished while nobody listened is still collected.
 */

export const COMFYUI = 'ComfyUI';

export interface ComfyOptions {
  baseUrl: string;
  workflows: Map<string, Workflow>;
  timeoutMs: number;
  pollIntervalMs: number;
  /** ComfyUI's `models/loras` folder as this server sees it: trained LoRAs are copied there. */
  lorasDir?: string;
  fetchFn?: typeof fetch;
}

export interface ComfySubmission {
  workflow: string;
  values: SlotValues;
  /** Input images for slots (uploaded first; the slot gets the uploaded name). */
  images?: Partial<Record<'image', InputImage>>;
  /** A trained LoRA to make available in ComfyUI's loras folder (its URL is our stored copy). */
  lora?: { url: string; scale: number };
}

export interface ComfyOutput {
  requestId: string;
  images: ProviderImage[];
}

interface HistoryEntry {
  outputs?: Record<string, { images?: { filename: string; subfolder?: string; type?: string }[] }>;
  status?: { status_str?: string; completed?: boolean; messages?: [string, Record<string, unknown>][] };
}

/** What a socket heard before anyone watched it. */
const backlogs = new WeakMap<WebSocket, { messages: [WebSocket.RawData, boolean][]; stop(): void }>();

/** The smallest gap between two previews forwarded to the pipeline. */
const PREVIEW_EVERY_MS = 500;

export class ComfyClient {
  readonly fetchFn: typeof fetch;
  readonly wsBase: string;

  constructor(readonly options: ComfyOptions) {
    this.fetchFn = options.fetchFn ?? fetch;
    this.wsBase = options.baseUrl.replace(/^http/, 'ws');
  }

  /** Submits (or resumes) a prompt and follows it to its images. */
  async run(submission: ComfySubmission, ctx: RunContext): Promise<ComfyOutput> {
    const scope = new RunScope(ctx.signal, this.options.timeoutMs);
    let requestId = ctx.resumeRequestId;
    try {
      if (requestId) {
        try {
          return await this.follow(requestId, scope, ctx);
        } catch (err) {
          // The recorded prompt failed or vanished: this retry runs it afresh.
          if (!(err instanceof VendorRequestEndedError) || scope.signal.aborted) throw err;
        }
      }
      const clientId = randomUUID();
      // Connect first so no event of the new prompt is missed.
      const socket = await this.connect(clientId, scope.signal);
      try {
        const promptId = await this.submit(submission, clientId, scope.signal);
        requestId = `${promptId}.${clientId}`;
        await ctx.onSubmitted(requestId);
        return await this.follow(requestId, scope, ctx, socket);
      } finally {
        socket.close();
      }
    } catch (err) {
      const aborted = scope.abortError(COMFYUI, err);
      if (aborted) {
        // Free the GPU: a cancelled or overdue prompt is taken off the queue or interrupted.
        if (requestId) await this.cancel(requestId).catch(() => undefined);
        throw aborted;
      }
      throw err;
    }
  }

  /**
   * Cancels a prompt: deleted from the queue while pending (true: it never ran), interrupted while
   * running (false). A prompt in neither is already over.
   */
  async cancel(requestId: string): Promise<boolean> {
    const { promptId } = parseRequestId(requestId);
    const at = await this.where(promptId, AbortSignal.timeout(10_000));
    if (at === 'pending') {
      await this.json('POST', '/queue', { delete: [promptId] }, AbortSignal.timeout(10_000));
      return true;
    }
    if (at === 'running') {
      // /interrupt stops whatever runs now; it is ours (checked just above). Newer servers take the id.
      await this.json('POST', '/interrupt', { prompt_id: promptId }, AbortSignal.timeout(10_000));
    }
    return false;
  }

  private async submit(submission: ComfySubmission, clientId: string, signal: AbortSignal): Promise<string> {
    const workflow = this.options.workflows.get(submission.workflow);
    if (!workflow) {
      throw new ProviderError(
        `${COMFYUI}: no workflow named ${submission.workflow}`,
        'rejected',
        'This model is not set up on the ComfyUI server (its workflow is missing).',
      );
    }
    const values: SlotValues = { ...submission.values };
    if (submission.images?.image) values.image = await this.upload(submission.images.image, signal);
    if (submission.lora) {
      values.lora = await this.placeLora(submission.lora.url, signal);
      values.lora_scale = submission.lora.scale;
    }
    let graph: Workflow['graph'];
    try {
      graph = fillWorkflow(workflow, values);
    } catch (err) {
      if (!(err instanceof WorkflowError)) throw err;
      throw new ProviderError(
        `${COMFYUI}: ${err.message}`,
        'rejected',
        `This ComfyUI model cannot take that: ${err.message}.`,
      );
    }
    const res = await this.request('POST', '/prompt', { prompt: graph, client_id: clientId }, signal);
    const body = (await res.json().catch(() => ({}))) as {
      prompt_id?: string;
      error?: { message?: string; details?: string } | string;
      node_errors?: Record<
        string,
        { errors?: { message?: string; details?: string }[]; class_type?: string }
      >;
    };
    if (res.status === 400) {
      const message = invalidGraphMessage(body);
      throw new ProviderError(
        `${COMFYUI}: prompt refused: ${message}`,
        'rejected',
        `The ComfyUI server refused this model's workflow: ${message}`,
      );
    }
    if (!res.ok || typeof body.prompt_id !== 'string') {
      throw new ProviderError(
        `${COMFYUI}: POST /prompt answered HTTP ${res.status}`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    return body.prompt_id;
  }

  /** Uploads an input image; LoadImage then uses the name the server gives back. */
  private async upload(image: InputImage, signal: AbortSignal): Promise<string> {
    const form = new FormData();
    const ext =
      image.contentType === 'image/jpeg' ? 'jpg' : image.contentType === 'image/webp' ? 'webp' : 'png';
    const name = `lumina-${createHash('sha256').update(image.bytes).digest('hex').slice(0, 24)}.${ext}`;
    form.append('image', new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), name);
    form.append('overwrite', 'true');
    form.append('type', 'input');
    const res = await this.request('POST', '/upload/image', form, signal);
    const body = (await res.json().catch(() => ({}))) as { name?: string; subfolder?: string };
    if (!res.ok || typeof body.name !== 'string') {
      throw new ProviderError(
        `${COMFYUI}: upload answered HTTP ${res.status}`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    return body.subfolder ? `${body.subfolder}/${body.name}` : body.name;
  }

  /**
   * Copies a trained LoRA into ComfyUI's loras folder once (named by its weights' stored path, so the
   * same trained model is copied one time), and returns the file name the LoraLoader slot takes.
   */
  private async placeLora(url: string, signal: AbortSignal): Promise<string> {
    const dir = this.options.lorasDir;
    if (!dir) {
      throw new ProviderError(
        `${COMFYUI}: a LoRA was asked for but COMFYUI_LORAS_DIR is not set`,
        'rejected',
        'Trained models cannot run on this ComfyUI server yet: the operator has not set its LoRA folder.',
      );
    }
    const stored = url.startsWith('file:') ? url : new URL(url, 'http://x').pathname;
    const name = `lumina-${createHash('sha256').update(stored).digest('hex').slice(0, 20)}.safetensors`;
    const target = join(dir, name);
    if (
      await stat(target).then(
        () => true,
        () => false,
      )
    )
      return name;
    await mkdir(dir, { recursive: true });
    const partial = `${target}.${randomUUID()}.part`;
    if (url.startsWith('file:')) {
      await copyFile(new URL(url), partial);
    } else {
      const res = await this.fetchFn(url, { signal }).catch((cause: unknown) => {
        throw new ProviderError(`${COMFYUI}: fetching the LoRA failed`, 'transient', TRANSIENT_MESSAGE, {
          cause,
        });
      });
      if (!res.ok || !res.body)
        throw new ProviderError(
          `${COMFYUI}: the LoRA answered HTTP ${res.status}`,
          'transient',
          TRANSIENT_MESSAGE,
        );
      // Streamed to disk: a LoRA can be hundreds of MB, never held in memory whole. A broken download
      // leaves no part file behind.
      await pipeline(
        Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
        createWriteStream(partial),
      ).catch(async (error: unknown) => {
        await rm(partial, { force: true });
        throw error;
      });
    }
    await rename(partial, target);
    return name;
  }

  /**
   * Follows one prompt to its end: socket events (when a socket is open or can be opened) and
   * /history polls, whichever tells first.
   */
  private async follow(
    requestId: string,
    scope: RunScope,
    ctx: RunContext,
    open?: WebSocket,
  ): Promise<ComfyOutput> {
    const { promptId, clientId } = parseRequestId(requestId);
    // Finished already (a resume after the worker died)? Then no socket is needed.
    const early = await this.history(promptId, scope.signal);
    if (early) return this.collect(requestId, early, scope.signal);
    const where = open ? 'pending' : await this.where(promptId, scope.signal);
    if (!where) {
      throw new VendorRequestEndedError(
        `${COMFYUI}: prompt ${promptId} is neither queued, running nor in the history`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    const socket = open ?? (await this.connect(clientId, scope.signal));
    try {
      const entry = await this.watch(socket, promptId, scope, ctx, where === 'running');
      return await this.collect(requestId, entry, scope.signal);
    } finally {
      if (!open) socket.close();
    }
  }

  private watch(
    socket: WebSocket,
    promptId: string,
    scope: RunScope,
    ctx: RunContext,
    running: boolean,
  ): Promise<HistoryEntry> {
    return new Promise<HistoryEntry>((resolve, reject) => {
      // A resumed prompt may be running already: queue counts then no longer apply to it.
      let started = running;
      let percent: number | undefined;
      let message: string | undefined;
      let lastPreview = 0;
      let settled = false;
      let checking = false;
      // One update at a time, in order: a slow write (a preview) never lets an older percent win.
      let reporting = Promise.resolve();
      const report = (update: ProgressUpdate) => {
        reporting = reporting.then(() => ctx.onProgress(update)).catch(() => undefined);
      };
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearInterval(poll);
        socket.off('message', onMessage);
        socket.off('close', onClose);
        socket.off('error', onClose);
        scope.signal.removeEventListener('abort', onAbort);
        // Settle after the last progress report has landed: a preview written after the job ended (and
        // its previews were cleared) would be left behind, and a late percent could reach a moved job.
        void reporting.then(fn);
      };
      const done = () => {
        // The prompt is over: its history entry says how.
        this.history(promptId, scope.signal).then(
          (entry) =>
            finish(() =>
              entry ? resolve(entry) : reject(gone(`no history for ${promptId} after it finished`)),
            ),
          (err: unknown) => finish(() => reject(err)),
        );
      };
      const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
        if (isBinary) {
          const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
          // Only this client's socket hears previews, and it runs one prompt at a time.
          if (!started || bytes.length < 8) return;
          const event = bytes.readUInt32BE(0);
          const format = bytes.readUInt32BE(4);
          if (event !== 1 || (format !== 1 && format !== 2)) return;
          const now = Date.now();
          if (now - lastPreview < PREVIEW_EVERY_MS) return;
          lastPreview = now;
          report({
            status: 'running',
            percent,
            message,
            preview: {
              bytes: Buffer.from(bytes.subarray(8)),
              contentType: format === 1 ? 'image/jpeg' : 'image/png',
            },
          });
          return;
        }
        let msg: { type?: string; data?: Record<string, unknown> };
        try {
          msg = JSON.parse(data.toString()) as typeof msg;
        } catch {
          return;
        }
        const d = msg.data ?? {};
        if (msg.type === 'status') {
          const remaining = (d.status as { exec_info?: { queue_remaining?: number } } | undefined)?.exec_info
            ?.queue_remaining;
          if (!started && typeof remaining === 'number') {
            report({
              status: 'queued',
              queuePosition: remaining,
              message: `${remaining} in the ComfyUI queue`,
            });
          }
          return;
        }
        if (d.prompt_id !== promptId) return;
        switch (msg.type) {
          case 'execution_start':
            started = true;
            report({ status: 'running', percent: 0 });
            break;
          case 'progress': {
            started = true;
            const value = Number(d.value);
            const max = Number(d.max);
            if (max > 0) {
              percent = Math.max(0, Math.min(99, Math.round((value / max) * 100)));
              message = `step ${value}/${max}`;
              report({ status: 'running', percent, message });
            }
            break;
          }
          case 'executing':
            if (d.node === null) done();
            else started = true;
            break;
          case 'execution_success':
            done();
            break;
          case 'execution_error':
            finish(() => reject(executionError(d)));
            break;
          case 'execution_interrupted':
            if (!scope.signal.aborted) {
              finish(() =>
                reject(
                  new VendorRequestEndedError(
                    `${COMFYUI}: prompt ${promptId} was interrupted on the server`,
                    'transient',
                    TRANSIENT_MESSAGE,
                  ),
                ),
              );
            }
            break;
        }
      };
      const onClose = () => finish(() => reject(gone('the WebSocket closed before the prompt finished')));
      const onAbort = () => finish(() => reject(scope.signal.reason));
      // The socket may miss the end (it connected late); the history does not.
      const poll = setInterval(() => {
        if (checking) return;
        checking = true;
        this.history(promptId, scope.signal)
          .then((entry) => {
            if (entry) finish(() => resolve(entry));
          })
          .catch(() => undefined)
          .finally(() => (checking = false));
      }, this.options.pollIntervalMs);
      // Events that came between connecting and now (the queue status right after submitting).
      const early = backlogs.get(socket);
      backlogs.delete(socket);
      early?.stop();
      for (const [data, isBinary] of early?.messages ?? []) onMessage(data, isBinary);
      socket.on('message', onMessage);
      socket.on('close', onClose);
      socket.on('error', onClose);
      scope.signal.addEventListener('abort', onAbort, { once: true });
      if (socket.readyState !== WebSocket.OPEN) onClose();
    });
  }

  /** The finished entry's images, downloaded; an entry that ended in error fails with its message. */
  private async collect(requestId: string, entry: HistoryEntry, signal: AbortSignal): Promise<ComfyOutput> {
    if (entry.status?.status_str === 'error') {
      const error = entry.status.messages?.find(([event]) => event === 'execution_error')?.[1];
      if (error) throw executionError(error);
      const interrupted = entry.status.messages?.some(([event]) => event === 'execution_interrupted');
      throw new VendorRequestEndedError(
        `${COMFYUI}: prompt ${requestId} ended ${interrupted ? 'interrupted' : 'in error'}`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    const urls: string[] = [];
    for (const output of Object.values(entry.outputs ?? {})) {
      for (const image of output.images ?? []) {
        if ((image.type ?? 'output') !== 'output') continue;
        const q = new URLSearchParams({
          filename: image.filename,
          subfolder: image.subfolder ?? '',
          type: 'output',
        });
        urls.push(`${this.options.baseUrl}/view?${q}`);
      }
    }
    if (urls.length === 0) {
      throw new VendorRequestEndedError(
        `${COMFYUI}: prompt ${requestId} finished without images`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    return { requestId, images: await downloadImages(urls, this.fetchFn, signal, COMFYUI) };
  }

  /** The prompt's history entry once it has finished; undefined while it has not. */
  private async history(promptId: string, signal: AbortSignal): Promise<HistoryEntry | undefined> {
    const body = (await this.json(
      'GET',
      `/history/${encodeURIComponent(promptId)}`,
      undefined,
      signal,
    )) as Record<string, HistoryEntry>;
    const entry = body[promptId];
    return entry && (entry.status?.completed !== false || entry.status.status_str === 'error')
      ? entry
      : undefined;
  }

  /** Whether the prompt is running or still queued (undefined: neither). */
  private async where(promptId: string, signal: AbortSignal): Promise<'running' | 'pending' | undefined> {
    const queue = (await this.json('GET', '/queue', undefined, signal)) as {
      queue_running?: unknown[][];
      queue_pending?: unknown[][];
    };
    const has = (items: unknown[][] | undefined) => items?.some((item) => item[1] === promptId) ?? false;
    return has(queue.queue_running) ? 'running' : has(queue.queue_pending) ? 'pending' : undefined;
  }

  private connect(clientId: string, signal: AbortSignal): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${this.wsBase}/ws?clientId=${encodeURIComponent(clientId)}`);
      const onAbort = () => {
        socket.terminate();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const messages: [WebSocket.RawData, boolean][] = [];
      const keep = (data: WebSocket.RawData, isBinary: boolean) => void messages.push([data, isBinary]);
      socket.on('message', keep);
      backlogs.set(socket, { messages, stop: () => socket.off('message', keep) });
      socket.once('open', () => {
        signal.removeEventListener('abort', onAbort);
        socket.off('error', onError);
        // Errors after opening surface as 'close' to whoever watches.
        socket.on('error', () => undefined);
        resolve(socket);
      });
      const onError = (cause: Error) => {
        signal.removeEventListener('abort', onAbort);
        reject(
          new ProviderError(
            `${COMFYUI}: WebSocket failed: ${cause.message}`,
            'transient',
            TRANSIENT_MESSAGE,
            { cause },
          ),
        );
      };
      socket.once('error', onError);
    });
  }

  private async json(method: string, path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
    const res = await this.request(method, path, body, signal);
    if (!res.ok) {
      await res.body?.cancel();
      throw new ProviderError(
        `${COMFYUI}: ${method} ${path} answered HTTP ${res.status}`,
        'transient',
        TRANSIENT_MESSAGE,
      );
    }
    return res.json().catch(() => ({}));
  }

  private async request(method: string, path: string, body: unknown, signal: AbortSignal): Promise<Response> {
    const init: RequestInit = { method, signal };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    try {
      return await this.fetchFn(`${this.options.baseUrl}${path}`, init);
    } catch (cause) {
      if (signal.aborted) throw cause;
      throw new ProviderError(
        `${COMFYUI}: ${method} ${path} failed (server unreachable)`,
        'transient',
        TRANSIENT_MESSAGE,
        {
          cause,
        },
      );
    }
  }
}

export function parseRequestId(requestId: string): { promptId: string; clientId: string } {
  const dot = requestId.indexOf('.');
  return dot < 0
    ? { promptId: requestId, clientId: randomUUID() }
    : { promptId: requestId.slice(0, dot), clientId: requestId.slice(dot + 1) };
}

function gone(why: string): ProviderError {
  return new ProviderError(`${COMFYUI}: ${why}`, 'transient', TRANSIENT_MESSAGE);
}

function executionError(d: Record<string, unknown>): ProviderError {
  const what = typeof d.exception_message === 'string' ? d.exception_message.trim() : 'unknown error';
  const node = typeof d.node_type === 'string' ? ` in ${d.node_type}` : '';
  return new VendorRequestEndedError(
    `${COMFYUI}: execution_error${node}: ${what}`,
    'rejected',
    `The ComfyUI server could not make this image${node}: ${what}`,
  );
}

function invalidGraphMessage(body: {
  error?: { message?: string; details?: string } | string;
  node_errors?: Record<string, { errors?: { message?: string; details?: string }[]; class_type?: string }>;
}): string {
  const head = typeof body.error === 'string' ? body.error : (body.error?.message ?? 'invalid workflow');
  const nodes = Object.entries(body.node_errors ?? {})
    .map(([id, e]) => {
      const first = e.errors?.[0];
      return `node ${id}${e.class_type ? ` (${e.class_type})` : ''}: ${first?.message ?? 'error'}${first?.details ? ` – ${first.details}` : ''}`;
    })
    .slice(0, 3);
  return [head, ...nodes].join('; ');
}

/** The ComfyUI client from config, or undefined when COMFYUI_URL is unset (its models are then unavailable). */
export function comfyOptions(
  config: Pick<Config, 'providers'>,
  overrides: Partial<Pick<ComfyOptions, 'pollIntervalMs' | 'fetchFn' | 'timeoutMs'>> = {},
): ComfyOptions | undefined {
  const comfy = config.providers.comfyui;
  if (!comfy.url) return undefined;
  return {
    baseUrl: comfy.url.replace(/\/$/, ''),
    workflows: loadWorkflows(comfy.workflowsDir),
    timeoutMs: config.providers.timeoutSeconds * 1000,
    pollIntervalMs: config.providers.pollIntervalMs,
    lorasDir: comfy.lorasDir,
    ...overrides,
  };
}
