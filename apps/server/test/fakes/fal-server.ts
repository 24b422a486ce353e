import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { readRequest, sendJson, startFakeServer } from './http.ts';
import sharp from 'sharp';
import { fakePng, loopbackFetch } from './png.ts';
import { fakeWeights, zipEntryNames } from './training-files.ts';

/**
 * A local stand-in for fal.ai's queue API (queue.fal.run), its storage (rest.fal.ai upload initiate +
 * the signed PUT), its CDN and its webhook JWKS, speaking the wire protocol `@fal-ai/client` 1.x uses
 * (docs/reference/providers/fal.md). Point the official client at it with `requestMiddleware`
 * rewriting `https://queue.fal.run` and `https://rest.fal.ai` to `url` (the adapter's `baseUrl` option
 * does exactly that). Each submitted request follows a scripted scenario.
 *
 * Outputs take the shape of the endpoint's real output: `{image}` for `fal-ai/esrgan` (the input's size
 * times `scale`), `{video}` (a real H.264 MP4) for image-to-video endpoints, `{diffusers_lora_file,
 * config_file}` for the LoRA trainer (weights served by the fake), `{images, seed, has_nsfw_concepts}`
 * otherwise, sized by `image_size`, else like the uploaded `image_url`, else 64×64.
 */

/** fal's FLUX LoRA trainer; its `images_data_url` must be a zip uploaded to the fake's storage. */
export const FAL_TRAINER = 'fal-ai/flux-lora-fast-training';
/** Generation with a trained LoRA; its `loras` must be `[{path, scale?}]`. */
export const FAL_LORA_MODEL = 'fal-ai/flux-lora';

/**
 * A real 1-second 320×240 H.264 MP4 served as every video output, made once with
 * `ffmpeg -f lavfi -i testsrc=size=320x240:rate=10 -t 1 -c:v libx264 -pix_fmt yuv420p -movflags +faststart`.
 */
export const FAKE_MP4_PATH = new URL('../fixtures/video/testsrc-320x240-1s.mp4', import.meta.url);
let mp4: Buffer | undefined;
export function fakeMp4(): Buffer {
  mp4 ??= readFileSync(FAKE_MP4_PATH);
  return mp4;
}

/** Inputs each modelled endpoint requires (fal answers 422 `value_error.missing` without them). */
const REQUIRED_INPUTS: Record<string, string[]> = {
  'fal-ai/flux/dev/image-to-image': ['image_url', 'prompt'],
  'fal-ai/flux-1/dev/redux': ['image_url'],
  'fal-ai/flux-kontext/dev': ['image_url', 'prompt'],
  'fal-ai/esrgan': ['image_url'],
  'fal-ai/kling-video/v2.1/standard/image-to-video': ['image_url', 'prompt'],
  [FAL_TRAINER]: ['images_data_url'],
  [FAL_LORA_MODEL]: ['prompt'],
};

export interface FalScenario {
  /** Status polls answered IN_QUEUE before the request starts; queue_position counts down to 0. Default 1. */
  queuedPolls?: number;
  /** Status polls answered IN_PROGRESS (one more log line "step i/N" each) before COMPLETED. Default 2. */
  runningPolls?: number;
  /**
   * How the request ends. `model-error`: result 500 (the runner crashed). `rejected`: result 422 with
   * field errors. `content-policy`: result 422 `content_policy_violation`. `nsfw`: 200 with every image
   * flagged by the safety checker. `never`: stays IN_PROGRESS forever (timeouts).
   */
  outcome?: 'success' | 'model-error' | 'rejected' | 'content-policy' | 'nsfw' | 'never';
  /** Submit answers 422 (input validation) instead of queueing. */
  rejectAtSubmit?: boolean;
  /** The CDN answers 404 for the request's output files (they expired before we fetched them). */
  lostFiles?: boolean;
  /** The first N calls of each kind for this request answer 500 before behaving normally. */
  submitErrors?: number;
  statusErrors?: number;
  resultErrors?: number;
}

export interface FalFakeRequest {
  requestId: string;
  endpoint: string;
  input: Record<string, unknown>;
  webhookUrl?: string;
  scenario: FalScenario;
  statusPolls: number;
  resultCalls: number;
  cancelled: boolean;
  /** For the trainer: the names in the zip its `images_data_url` points at. */
  zipEntries?: string[];
  /**
   * For `fal-ai/flux-lora`: each `loras[].path` on 127.0.0.1 fetched like fal's runner would, with the
   * HTTP status and size it answered (other hosts are left alone: tests stay local).
   */
  loraFetches?: Promise<Array<{ index: number; path: string; status: number; bytes: number }>>;
}

/** A file uploaded through fal storage (initiate, then PUT of the bytes). */
export interface FalUpload {
  id: string;
  /** `file_name` and `content_type` the client sent to initiate. */
  fileName: string;
  contentType: string;
  /** The PUT's Content-Type header. */
  putContentType?: string;
  /** Undefined until the PUT arrived. */
  bytes?: Buffer;
  /** Decoded size, when the bytes are an image. */
  width?: number;
  height?: number;
  /** The `file_url` handed back: what the model input should carry. */
  url: string;
  /** A multipart upload's parts by number, until it is completed. */
  parts?: Map<number, Buffer>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FalFake {
  /** Base URL of the fake (the queue API lives at its root, like https://queue.fal.run). */
  url: string;
  /** Where the fake serves its webhook signing key set. */
  jwksUrl: string;
  /** The credentials the fake accepts (`Authorization: Key <key>`). */
  key: string;
  /** Scenarios for the next submits, used in order; later submits use `defaultScenario`. */
  scenario(...next: FalScenario[]): void;
  /** Forgets scenarios not yet used and resets `defaultScenario` (call between tests). */
  reset(): void;
  defaultScenario: FalScenario;
  /** Every HTTP request the fake received, in order. */
  received: RecordedRequest[];
  /** Submitted requests by request id. */
  requests: Map<string, FalFakeRequest>;
  /** Storage uploads, in order. */
  uploads: FalUpload[];
  /** The upload a `file_url` points at. */
  upload(fileUrl: unknown): FalUpload | undefined;
  /** The PNG bytes served for a request's n-th output image. */
  imageBytes(requestId: string, index?: number): Promise<Buffer>;
  /** The MP4 bytes served for a video output. */
  videoBytes(): Buffer;
  /** The `.safetensors` bytes served as a training request's `diffusers_lora_file`. */
  loraBytes(requestId: string): Buffer;
  /** The webhook fal would POST for a finished request: raw body and signature headers. */
  signWebhook(
    requestId: string,
    options?: { timestamp?: number; userId?: string; key?: KeyObject },
  ): Promise<{ body: string; headers: Record<string, string> }>;
  /** POSTs that webhook to the URL given at submit (or `url`); resolves to the receiver's HTTP status. */
  sendWebhook(requestId: string, options?: { url?: string; timestamp?: number }): Promise<number>;
  /** How many times the JWKS was fetched (to test key caching). */
  jwksFetches: number;
  /** A fetch for the client under test that refuses anything but 127.0.0.1 and records URLs in `urlsSeen`. */
  fetch: typeof fetch;
  urlsSeen: string[];
  close(): Promise<void>;
}

const DEFAULT_SIZE = 64;

/** The requests the fake received with this prompt (tests send prompts no other test sends). */
export const falRequestsFor = (fal: FalFake, prompt: string): FalFakeRequest[] =>
  [...fal.requests.values()].filter((r) => r.input.prompt === prompt);

export async function startFalFake(options: { key?: string } = {}): Promise<FalFake> {
  const key = options.key ?? 'test-key-id:test-key-secret';
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'fake-fal-1' };
  const requests = new Map<string, FalFakeRequest>();
  const received: RecordedRequest[] = [];
  const pending: FalScenario[] = [];
  const urlsSeen: string[] = [];
  const uploads: FalUpload[] = [];

  const fake: FalFake = {
    url: '',
    jwksUrl: '',
    key,
    scenario: (...next) => void pending.push(...next),
    reset: () => {
      pending.length = 0;
      fake.defaultScenario = {};
    },
    defaultScenario: {},
    received,
    requests,
    uploads,
    upload: (fileUrl) => uploads.find((u) => u.url === fileUrl),
    videoBytes: fakeMp4,
    loraBytes: (requestId) => fakeWeights('safetensors', requestId),
    imageBytes: (requestId, index = 0) => {
      const req = requests.get(requestId);
      if (!req) throw new Error(`no request ${requestId}`);
      const { width, height } = outputSize(req);
      return fakePng(width, height, index);
    },
    signWebhook: async (requestId, opts = {}) => {
      const req = requests.get(requestId);
      if (!req) throw new Error(`no request ${requestId}`);
      const body = JSON.stringify(await webhookBody(req));
      const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
      const userId = opts.userId ?? 'fake-user';
      const message = [requestId, userId, timestamp, createHash('sha256').update(body).digest('hex')].join(
        '\n',
      );
      const signature = sign(null, Buffer.from(message, 'utf8'), opts.key ?? privateKey).toString('hex');
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'x-fal-webhook-request-id': requestId,
          'x-fal-webhook-user-id': userId,
          'x-fal-webhook-timestamp': timestamp,
          'x-fal-webhook-signature': signature,
        },
      };
    },
    sendWebhook: async (requestId, opts = {}) => {
      const target = opts.url ?? requests.get(requestId)?.webhookUrl;
      if (!target) throw new Error(`request ${requestId} has no webhook URL`);
      const { body, headers } = await fake.signWebhook(requestId, { timestamp: opts.timestamp });
      const res = await fetch(target, { method: 'POST', headers, body });
      return res.status;
    },
    jwksFetches: 0,
    fetch: loopbackFetch(urlsSeen),
    urlsSeen,
    close: () => server.close(),
  };

  async function webhookBody(req: FalFakeRequest): Promise<Record<string, unknown>> {
    const base = { request_id: req.requestId, gateway_request_id: req.requestId };
    const result = await resultFor(req);
    if (result.status === 200) return { ...base, status: 'OK', payload: result.body };
    return { ...base, status: 'ERROR', error: `Invalid status code: ${result.status}`, payload: result.body };
  }

  function outputSize(req: FalFakeRequest): { width: number; height: number } {
    const { input } = req;
    const size = input.image_size as { width?: number; height?: number } | undefined;
    if (typeof size?.width === 'number' && typeof size.height === 'number') {
      return { width: size.width, height: size.height };
    }
    const source = fake.upload(input.image_url);
    if (source?.width && source.height) {
      const scale = req.endpoint === 'fal-ai/esrgan' ? Number(input.scale ?? 2) : 1;
      return { width: source.width * scale, height: source.height * scale };
    }
    return { width: DEFAULT_SIZE, height: DEFAULT_SIZE };
  }

  function outputKind(endpoint: string): 'images' | 'image' | 'video' | 'lora' {
    if (endpoint === 'fal-ai/esrgan') return 'image';
    if (endpoint === FAL_TRAINER) return 'lora';
    return /image-to-video$/.test(endpoint) ? 'video' : 'images';
  }

  function queueUrls(req: FalFakeRequest) {
    const [owner, app] = req.endpoint.split('/');
    const base = `${fake.url}/${owner}/${app}/requests/${req.requestId}`;
    return { response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel` };
  }

  function phase(req: FalFakeRequest): 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' {
    if (req.cancelled) return 'COMPLETED';
    const queued = req.scenario.queuedPolls ?? 1;
    const running = req.scenario.runningPolls ?? 2;
    if (req.statusPolls <= queued) return 'IN_QUEUE';
    if (req.scenario.outcome === 'never' || req.statusPolls <= queued + running) return 'IN_PROGRESS';
    return 'COMPLETED';
  }

  function logsFor(req: FalFakeRequest): Array<Record<string, string>> {
    const queued = req.scenario.queuedPolls ?? 1;
    const running = req.scenario.runningPolls ?? 2;
    const steps = Math.min(Math.max(req.statusPolls - queued, 0), running);
    return Array.from({ length: steps }, (_, i) => ({
      message: `step ${i + 1}/${running}`,
      level: 'INFO',
      source: 'USER',
      timestamp: new Date().toISOString(),
    }));
  }

  async function resultFor(req: FalFakeRequest): Promise<{ status: number; body: unknown }> {
    if (req.cancelled) {
      // fal does not document the result of a cancelled request; we answer as for other failed ones.
      return { status: 400, body: { detail: 'Request was cancelled.', error_type: 'request_cancelled' } };
    }
    if (phase(req) !== 'COMPLETED') return { status: 400, body: { detail: 'Request is still in progress' } };
    switch (req.scenario.outcome ?? 'success') {
      case 'model-error':
        return {
          status: 500,
          body: { detail: 'Internal error: CUDA out of memory', error_type: 'internal_error' },
        };
      case 'rejected':
        return {
          status: 422,
          body: {
            detail: [
              {
                loc: ['body', 'num_inference_steps'],
                msg: 'ensure this value is less than or equal to 50',
                type: 'value_error.number.not_le',
              },
            ],
          },
        };
      case 'content-policy':
        return {
          status: 422,
          body: {
            detail: [
              {
                loc: ['body', 'prompt'],
                msg: 'The prompt was flagged by the content checker.',
                type: 'content_policy_violation',
              },
            ],
          },
        };
      default: {
        const unreadable = (await req.loraFetches)?.find((f) => f.status !== 200);
        if (unreadable) {
          return {
            status: 422,
            body: {
              detail: [
                {
                  loc: ['body', 'loras', unreadable.index, 'path'],
                  msg: 'Could not download the LoRA weights from this URL',
                  type: 'file_download_error',
                },
              ],
            },
          };
        }
        const kind = outputKind(req.endpoint);
        if (kind === 'lora') {
          const files = `${fake.url}/files/${req.requestId}`;
          return {
            status: 200,
            body: {
              diffusers_lora_file: {
                url: `${files}/pytorch_lora_weights.safetensors`,
                content_type: 'application/octet-stream',
                file_name: 'pytorch_lora_weights.safetensors',
                file_size: fake.loraBytes(req.requestId).length,
              },
              config_file: {
                url: `${files}/config.json`,
                content_type: 'application/json',
                file_name: 'config.json',
              },
            },
          };
        }
        if (kind === 'video') {
          const video = fakeMp4();
          return {
            status: 200,
            body: {
              video: {
                url: `${fake.url}/files/${req.requestId}/output.mp4`,
                content_type: 'video/mp4',
                file_name: 'output.mp4',
                file_size: video.length,
              },
            },
          };
        }
        const { width, height } = outputSize(req);
        if (kind === 'image') {
          return {
            status: 200,
            body: {
              image: {
                url: `${fake.url}/files/${req.requestId}/0.png`,
                width,
                height,
                content_type: 'image/png',
              },
            },
          };
        }
        const count = typeof req.input.num_images === 'number' ? req.input.num_images : 1;
        const nsfw = req.scenario.outcome === 'nsfw';
        return {
          status: 200,
          body: {
            images: Array.from({ length: count }, (_, i) => ({
              url: `${fake.url}/files/${req.requestId}/${i}.png`,
              width,
              height,
              content_type: 'image/png',
            })),
            seed: typeof req.input.seed === 'number' ? req.input.seed : 1234,
            has_nsfw_concepts: Array.from({ length: count }, () => nsfw),
            prompt: req.input.prompt,
            timings: { inference: 0.01 },
          },
        };
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const { raw, body, url, method } = await readRequest(req, fake.url);
    received.push({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body });
    const parts = url.pathname.split('/').filter(Boolean);

    // Public routes: the CDN and the webhook key set.
    if (method === 'GET' && url.pathname === '/.well-known/jwks.json') {
      fake.jwksFetches++;
      return sendJson(res, 200, { keys: [jwk] });
    }
    if (method === 'GET' && parts[0] === 'files' && parts.length === 3) {
      const request = requests.get(parts[1]!);
      if (!request || request.scenario.lostFiles) return sendJson(res, 404, { detail: 'Not found' });
      if (parts[2] === 'output.mp4') {
        const video = fakeMp4();
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': video.length });
        return res.end(video);
      }
      if (parts[2] === 'pytorch_lora_weights.safetensors') {
        const weights = fake.loraBytes(request.requestId);
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': weights.length });
        return res.end(weights);
      }
      if (parts[2] === 'config.json') {
        return sendJson(res, 200, { trigger_word: request.input.trigger_word, steps: request.input.steps });
      }
      const png = await fake.imageBytes(request.requestId, Number.parseInt(parts[2]!, 10));
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      return res.end(png);
    }

    // Storage: the signed upload URL (no Authorization, like a GCS signed URL) and the stored file.
    // Files over 90 MB come in 10 MB parts (`/upload/<id>/<n>`, each answering its etag), then
    // `/upload/<id>/complete` with the part list.
    if (parts[0] === 'upload' && parts.length >= 2 && parts.length <= 3) {
      const upload = uploads.find((u) => u.id === parts[1]);
      if (!upload || url.searchParams.get('signature') !== upload.id) {
        return sendJson(res, 403, { detail: 'Invalid upload signature' });
      }
      if (method === 'PUT' && parts.length === 2) {
        await store(upload, raw, req.headers['content-type']);
        res.writeHead(200);
        return res.end();
      }
      if (method === 'PUT' && /^\d+$/.test(parts[2]!) && upload.parts) {
        const partNumber = Number(parts[2]);
        upload.parts.set(partNumber, raw);
        return sendJson(res, 200, { partNumber, etag: createHash('md5').update(raw).digest('hex') });
      }
      if (method === 'POST' && parts[2] === 'complete' && upload.parts) {
        const { parts: listed } = JSON.parse(body || '{}') as { parts?: Array<{ partNumber: number }> };
        const chunks = (listed ?? []).map((p) => upload.parts!.get(p.partNumber));
        if (chunks.length === 0 || chunks.some((c) => !c)) {
          return sendJson(res, 400, { detail: 'Unknown or missing part' });
        }
        await store(upload, Buffer.concat(chunks as Buffer[]), upload.contentType);
        return sendJson(res, 200, { file_url: upload.url });
      }
      return sendJson(res, 405, { detail: 'Method not allowed' });
    }
    if (method === 'GET' && parts[0] === 'files' && parts.length === 2) {
      const upload = uploads.find((u) => u.id === parts[1]);
      if (!upload?.bytes) return sendJson(res, 404, { detail: 'Not found' });
      res.writeHead(200, { 'content-type': upload.contentType, 'content-length': upload.bytes.length });
      return res.end(upload.bytes);
    }

    if (req.headers.authorization !== `Key ${key}`) return sendJson(res, 401, { detail: 'Unauthorized' });

    // POST /storage/upload/initiate[-multipart]?storage_type=fal-cdn-v3 (rest.fal.ai)
    const initiate = /^\/storage\/upload\/initiate(-multipart)?$/.exec(url.pathname);
    if (method === 'POST' && initiate) {
      const { content_type: contentType, file_name: fileName } = JSON.parse(body || '{}') as {
        content_type?: string;
        file_name?: string;
      };
      if (!contentType || !fileName) {
        return sendJson(res, 422, {
          detail: [{ loc: ['body', 'content_type'], msg: 'field required', type: 'value_error.missing' }],
        });
      }
      const id = randomUUID();
      const upload: FalUpload = {
        id,
        fileName,
        contentType,
        url: `${fake.url}/files/${id}`,
        ...(initiate[1] ? { parts: new Map<number, Buffer>() } : {}),
      };
      uploads.push(upload);
      return sendJson(res, 200, {
        upload_url: `${fake.url}/upload/${id}?signature=${id}`,
        file_url: upload.url,
      });
    }

    // GET|PUT /{owner}/{app}/requests/{id}[/status|/cancel]: status, result, cancel (keyed by id only).
    if (parts.length >= 4 && parts[2] === 'requests') {
      const request = requests.get(parts[3]!);
      if (!request) return sendJson(res, 404, { detail: 'Request not found', status: 'NOT_FOUND' });
      const action = parts[4];
      if (method === 'GET' && action === 'status') {
        if ((request.scenario.statusErrors ?? 0) > 0) {
          request.scenario.statusErrors!--;
          return sendJson(res, 500, { detail: 'Internal Server Error' });
        }
        request.statusPolls++;
        const status = phase(request);
        const logs = url.searchParams.get('logs') === '1' ? logsFor(request) : null;
        const queued = request.scenario.queuedPolls ?? 1;
        const body: Record<string, unknown> = {
          status,
          request_id: request.requestId,
          ...queueUrls(request),
        };
        if (status === 'IN_QUEUE') body.queue_position = queued - request.statusPolls;
        else body.logs = logs;
        if (status === 'COMPLETED') body.metrics = { inference_time: 0.01 };
        return sendJson(res, status === 'COMPLETED' ? 200 : 202, body);
      }
      if (method === 'GET' && action === undefined) {
        request.resultCalls++;
        if ((request.scenario.resultErrors ?? 0) > 0) {
          request.scenario.resultErrors!--;
          return sendJson(res, 500, { detail: 'Internal Server Error' });
        }
        const result = await resultFor(request);
        return sendJson(res, result.status, result.body, { 'x-fal-request-id': request.requestId });
      }
      if (method === 'PUT' && action === 'cancel') {
        if (phase(request) === 'COMPLETED') return sendJson(res, 400, { status: 'ALREADY_COMPLETED' });
        request.cancelled = true;
        return sendJson(res, 202, { status: 'CANCELLATION_REQUESTED' });
      }
      return sendJson(res, 405, { detail: 'Method not allowed' });
    }

    // POST /{owner}/{app}[/{path}]: submit to the queue.
    if (method === 'POST' && parts.length >= 2) {
      const scenario = { ...(pending.shift() ?? fake.defaultScenario) };
      if ((scenario.submitErrors ?? 0) > 0) {
        // A retry of this submit (by the client or the next job attempt) gets one error fewer.
        pending.unshift({ ...scenario, submitErrors: scenario.submitErrors! - 1 });
        return sendJson(res, 500, { detail: 'Internal Server Error' });
      }
      if (scenario.rejectAtSubmit) {
        return sendJson(res, 422, {
          detail: [{ loc: ['body', 'prompt'], msg: 'field required', type: 'value_error.missing' }],
        });
      }
      const endpoint = parts.join('/');
      const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      const invalid = validationErrors(endpoint, input);
      let zipEntries: string[] | undefined;
      if (endpoint === FAL_TRAINER && invalid.length === 0) {
        zipEntries = zipEntryNames(fake.upload(input.images_data_url)?.bytes);
        if (!zipEntries) {
          invalid.push({
            loc: ['body', 'images_data_url'],
            msg: 'could not download a zip archive from this URL',
            type: 'value_error',
          });
        }
      }
      if (invalid.length > 0) return sendJson(res, 422, { detail: invalid });
      const request: FalFakeRequest = {
        requestId: randomUUID(),
        endpoint,
        input,
        webhookUrl: url.searchParams.get('fal_webhook') ?? undefined,
        scenario,
        statusPolls: 0,
        resultCalls: 0,
        cancelled: false,
        ...(zipEntries ? { zipEntries } : {}),
        ...(endpoint === FAL_LORA_MODEL ? { loraFetches: fetchLoras(input.loras) } : {}),
      };
      requests.set(request.requestId, request);
      return sendJson(res, 200, {
        request_id: request.requestId,
        gateway_request_id: request.requestId,
        status: 'IN_QUEUE',
        queue_position: scenario.queuedPolls ?? 1,
        ...queueUrls(request),
      });
    }
    return sendJson(res, 404, { detail: 'Not found' });
  }

  async function store(upload: FalUpload, bytes: Buffer, contentType: string | undefined) {
    upload.bytes = bytes;
    upload.putContentType = contentType;
    delete upload.parts;
    const meta = await sharp(bytes)
      .metadata()
      .catch(() => undefined);
    upload.width = meta?.width;
    upload.height = meta?.height;
  }

  const server = await startFakeServer(handle);
  fake.url = server.url;
  fake.jwksUrl = `${fake.url}/.well-known/jwks.json`;
  return fake;
}

/** Fetches every loopback `loras[].path` (as fal's runner downloads the weights before generating). */
async function fetchLoras(loras: unknown) {
  const paths = (Array.isArray(loras) ? loras : []).map((l) => String((l as { path?: unknown }).path));
  const local = paths
    .map((path, index) => ({ path, index }))
    .filter(({ path }) => /^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(path));
  return Promise.all(
    local.map(async ({ path, index }) => {
      const res = await fetch(path).catch(() => undefined);
      const bytes = res?.ok ? (await res.arrayBuffer()).byteLength : 0;
      return { index, path, status: res?.status ?? 0, bytes };
    }),
  );
}

/**
 * Pydantic-style field errors for the modelled endpoints: missing inputs, Kling's string durations,
 * `loras` that are not LoraWeight objects.
 */
function validationErrors(endpoint: string, input: Record<string, unknown>) {
  const errors = (REQUIRED_INPUTS[endpoint] ?? [])
    .filter((field) => typeof input[field] !== 'string' || input[field] === '')
    .map((field) => ({ loc: ['body', field], msg: 'field required', type: 'value_error.missing' }));
  if (
    /kling-video/.test(endpoint) &&
    input.duration !== undefined &&
    !['5', '10'].includes(input.duration as string)
  ) {
    errors.push({
      loc: ['body', 'duration'],
      msg: "unexpected value; permitted: '5', '10'",
      type: 'value_error.const',
    });
  }
  if (endpoint === FAL_LORA_MODEL && input.loras !== undefined) {
    const loras = Array.isArray(input.loras) ? (input.loras as unknown[]) : [undefined];
    loras.forEach((lora, i) => {
      const { path, scale } = (lora ?? {}) as { path?: unknown; scale?: unknown };
      if (typeof path !== 'string' || !/^https?:\/\//.test(path)) {
        errors.push({
          loc: ['body', 'loras', String(i), 'path'],
          msg: 'field required',
          type: 'value_error.missing',
        });
      } else if (scale !== undefined && (typeof scale !== 'number' || scale < 0 || scale > 4)) {
        errors.push({
          loc: ['body', 'loras', String(i), 'scale'],
          msg: 'ensure this value is between 0 and 4',
          type: 'value_error.number',
        });
      }
    });
  }
  return errors;
}
