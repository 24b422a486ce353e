import { zipSync } from 'fflate';
import sharp from 'sharp';
import type { InputImage, ProviderVideo } from './image-tools.ts';
import { ProviderError, type ProgressUpdate, type ProviderImage, type RunContext } from './text-to-image.ts';

/**
 * Pieces shared by the hosted-vendor adapters (fal, Replicate; text-to-image and image tools): the run's
 * deadline and cancellation, progress de-duplication, log parsing, input files and downloading outputs
 * into memory.
 */

/** Largest single output we accept from a vendor's CDN. */
const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
/** Largest video output (a 10-second 1080p clip is ~10–30 MB). */
const MAX_VIDEO_BYTES = 256 * 1024 * 1024;
/** Largest trained weights file (a FLUX LoRA of rank 16–32 is ~90–350 MB, Replicate's tar a little more). */
const MAX_WEIGHTS_BYTES = 1024 * 1024 * 1024;

/**
 * The vendor request itself ended without a usable result (failed, cancelled, vanished). A retried job
 * that resumes such a request must submit a new one rather than re-read the same failure.
 */
export class VendorRequestEndedError extends ProviderError {
  constructor(
    message: string,
    kind: ProviderError['kind'],
    userMessage: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, kind, userMessage, options);
  }
}

export const TRANSIENT_MESSAGE = 'The image provider had a temporary problem. Please try again in a moment.';
export const CANCELLED_MESSAGE = 'The generation was cancelled.';

/** One run's combined signal: the caller's (cancel / shutdown) plus the overall deadline. */
export class RunScope {
  readonly signal: AbortSignal;
  private readonly deadline: AbortSignal;

  constructor(
    readonly caller: AbortSignal,
    readonly timeoutMs: number,
  ) {
    this.deadline = AbortSignal.timeout(timeoutMs);
    this.signal = AbortSignal.any([caller, this.deadline]);
  }

  get timedOut(): boolean {
    return this.deadline.aborted && !this.caller.aborted;
  }

  /** Turns an error thrown while the scope was aborted into the matching ProviderError. */
  abortError(vendor: string, cause?: unknown): ProviderError | undefined {
    if (this.caller.aborted) {
      return new ProviderError(`${vendor} run aborted by caller`, 'cancelled', CANCELLED_MESSAGE, { cause });
    }
    if (this.deadline.aborted) {
      const minutes = Math.round(this.timeoutMs / 6000) / 10;
      return new ProviderError(
        `${vendor} did not finish within ${this.timeoutMs} ms`,
        'timeout',
        `The image provider did not finish within ${minutes} minutes, so the request was stopped.`,
        { cause },
      );
    }
    return undefined;
  }
}

/**
 * The common part of every hosted adapter: its vendor's name, always available once configured (an
 * unconfigured vendor has no adapter), over the vendor's request cycle (fal's queue, Replicate's
 * predictions) that one adapter shares with nothing else.
 */
export abstract class HostedAdapter<Name extends string, Requests> {
  readonly available = true;

  constructor(
    readonly name: Name,
    protected readonly requests: Requests,
  ) {}
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Forwards progress to the pipeline, skipping updates identical to the previous one. */
export function progressReporter(ctx: RunContext): (update: ProgressUpdate) => Promise<void> {
  let last = '';
  return async (update) => {
    const key = JSON.stringify(update);
    if (key === last) return;
    last = key;
    await ctx.onProgress(update);
  };
}

/** A percentage from a log line: "step 12/28", "12/28 [00:03<…]", "45%|████" (tqdm). */
export function percentFromLog(line: string): number | undefined {
  const pct = /(\d{1,3})%\s*\|/.exec(line);
  if (pct) return clampPercent(Number(pct[1]));
  const frac = /(\d+)\s*\/\s*(\d+)/.exec(line);
  if (frac && Number(frac[2]) > 0) return clampPercent((Number(frac[1]) / Number(frac[2])) * 100);
  return undefined;
}

function clampPercent(n: number): number {
  return Math.max(0, Math.min(100, Math.round(n)));
}

/** Downloads every output into memory (vendor URLs expire; we never hand them on). */
export async function downloadImages(
  urls: string[],
  fetchFn: typeof fetch,
  signal: AbortSignal,
  vendor: string,
): Promise<ProviderImage[]> {
  return Promise.all(urls.map((url) => downloadImage(url, fetchFn, signal, vendor)));
}

async function downloadImage(
  url: string,
  fetchFn: typeof fetch,
  signal: AbortSignal,
  vendor: string,
): Promise<ProviderImage> {
  const { bytes, res } = await downloadBytes(url, fetchFn, signal, vendor, MAX_IMAGE_BYTES);
  return readableImage(bytes, vendor, `output ${url}`, contentTypeOf(res));
}

/** Base64 images in a vendor's answer (a data: URL prefix allowed), each checked to be a readable image. */
export function decodeBase64Images(images: string[], vendor: string): Promise<ProviderImage[]> {
  return Promise.all(
    images.map((b64) =>
      readableImage(
        Buffer.from(b64.replace(/^data:[^;]+;base64,/, ''), 'base64'),
        vendor,
        'an output',
        'image/png',
      ),
    ),
  );
}

/** An output image with its type and size from its own bytes; bytes no decoder reads are a transient failure. */
async function readableImage(
  bytes: Buffer,
  vendor: string,
  what: string,
  fallbackType: string,
): Promise<ProviderImage> {
  try {
    const meta = await sharp(bytes).metadata();
    return {
      bytes,
      contentType: meta.format ? `image/${meta.format === 'jpeg' ? 'jpeg' : meta.format}` : fallbackType,
      width: meta.width ?? 0,
      height: meta.height ?? 0,
    };
  } catch (cause) {
    throw new ProviderError(`${vendor}: ${what} is not a readable image`, 'transient', TRANSIENT_MESSAGE, {
      cause,
    });
  }
}

/**
 * Downloads a video output into memory and checks it is an MP4 (an ISO-BMFF `ftyp` box first), whatever
 * the CDN's content type says. The pipeline probes size and duration and makes the poster.
 */
export async function downloadVideo(
  url: string,
  fetchFn: typeof fetch,
  signal: AbortSignal,
  vendor: string,
): Promise<ProviderVideo> {
  const { bytes } = await downloadBytes(url, fetchFn, signal, vendor, MAX_VIDEO_BYTES);
  if (!isMp4(bytes)) {
    throw new ProviderError(`${vendor}: output ${url} is not an MP4 video`, 'transient', TRANSIENT_MESSAGE);
  }
  return { bytes, contentType: 'video/mp4' };
}

/**
 * Downloads a finished training's weights into memory: the vendor's URL expires, so the pipeline keeps
 * its own copy. The content type is the CDN's, the file name the URL's last path segment.
 */
export async function downloadWeights(
  url: string,
  fetchFn: typeof fetch,
  signal: AbortSignal,
  vendor: string,
): Promise<{ bytes: Buffer; contentType: string; fileName: string }> {
  const { bytes, res } = await downloadBytes(url, fetchFn, signal, vendor, MAX_WEIGHTS_BYTES);
  if (bytes.length === 0) {
    throw new ProviderError(`${vendor}: weights ${url} are empty`, 'transient', TRANSIENT_MESSAGE);
  }
  const fileName = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  return { bytes, contentType: contentTypeOf(res), fileName };
}

/**
 * The training photos as one zip, the input both hosted trainers take (fal's `images_data_url`,
 * Replicate's `input_images`): `photo-01.jpg`… in order, stored without compression because JPEG, PNG
 * and WebP are compressed already (deflating them again costs CPU and saves nothing).
 */
export function trainingZip(images: InputImage[]): File {
  const width = String(images.length).length;
  const entries = Object.fromEntries(
    images.map((image, i) => [
      `photo-${String(i + 1).padStart(Math.max(2, width), '0')}.${EXTENSIONS[image.contentType] ?? 'bin'}`,
      new Uint8Array(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength),
    ]),
  );
  const zip = zipSync(entries, { level: 0 });
  return new File([zip], 'training-photos.zip', { type: 'application/zip' });
}

/** True when the bytes start with an ISO base media `ftyp` box (MP4, M4V, QuickTime-compatible). */
export function isMp4(bytes: Buffer): boolean {
  return bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp';
}

async function downloadBytes(
  url: string,
  fetchFn: typeof fetch,
  signal: AbortSignal,
  vendor: string,
  maxBytes: number,
): Promise<{ bytes: Buffer; res: Response }> {
  let res: Response;
  try {
    res = await fetchFn(url, { signal });
  } catch (cause) {
    if (signal.aborted) throw cause;
    throw new ProviderError(`${vendor}: downloading ${url} failed`, 'transient', TRANSIENT_MESSAGE, {
      cause,
    });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ProviderError(
      `${vendor}: downloading ${url} answered HTTP ${res.status}`,
      'transient',
      TRANSIENT_MESSAGE,
    );
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new ProviderError(`${vendor}: output ${url} is ${declared} bytes`, 'transient', TRANSIENT_MESSAGE);
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > maxBytes) {
    throw new ProviderError(
      `${vendor}: output ${url} is ${bytes.length} bytes`,
      'transient',
      TRANSIENT_MESSAGE,
    );
  }
  return { bytes, res };
}

function contentTypeOf(res: Response): string {
  return res.headers.get('content-type')?.split(';')[0]?.trim() || 'application/octet-stream';
}

/** Matches vendor error text that means the safety / content policy refused the request. */
export const CONTENT_POLICY = /nsfw|content.?polic|safety|flagged|sensitive|moderat|inappropriate/i;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/**
 * An input image as a `File`. Both vendor SDKs upload every Blob they find in a model input to the
 * vendor's file storage before submitting (fal: storage initiate + PUT; Replicate: POST /v1/files) and
 * send the model the stored file's URL; the name only labels the upload.
 */
export function inputFile(image: { bytes: Buffer; contentType: string }, name: string): File {
  const extension = EXTENSIONS[image.contentType] ?? 'bin';
  return new File([new Uint8Array(image.bytes)], `${name}.${extension}`, { type: image.contentType });
}

/** Kling makes clips of 5 or 10 seconds only; any other duration is refused before the vendor is asked. */
export function klingSeconds(vendor: string, request: { durationSeconds: number }): 5 | 10 {
  if (request.durationSeconds === 5 || request.durationSeconds === 10) return request.durationSeconds;
  throw new ProviderError(
    `${vendor}: Kling makes 5 or 10 second videos, not ${request.durationSeconds}`,
    'rejected',
    'This model makes videos of 5 or 10 seconds. Choose one of those durations.',
  );
}

/** Image-to-video models need a prompt; this is what "animate" means when the person gives none. */
export const DEFAULT_MOTION_PROMPT =
  'Bring the picture to life with natural, gentle motion and a slow, smooth camera move.';
