import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { readRequest, sendJson, startFakeServer } from './http.ts';
import sharp from 'sharp';
import { fakeMp4 } from './fal-server.ts';
import { fakePng, loopbackFetch } from './png.ts';
import { fakeWeights, zipEntryNames } from './training-files.ts';

/**
 * A local stand-in for Replicate's HTTP API (api.replicate.com/v1: predictions, trainings, models and
 * the Files API), its file delivery host and its webhooks, speaking what the official `replicate` 1.x
 * client sends (docs/reference/providers/replicate.md). Point the client at it with
 * `baseUrl: fake.url + '/v1'`. Each prediction or training follows a scripted scenario.
 *
 * Trainings run only on FLUX_LORA_TRAINER (`ostris/flux-dev-lora-trainer`) at FLUX_LORA_TRAINER_VERSION,
 * into a destination model that must exist (POST /v1/models), from an `input_images` zip uploaded
 * through the Files API. A succeeded training outputs `{version: "<destination>:<new version>",
 * weights}` (a tar served by the fake) and the new version runs predictions as the destination model.
 *
 * Outputs take the shape of the model's real output: one URL string for the upscaler, the multi-image
 * Kontext app and Kling (a real H.264 MP4), an array of URLs otherwise. Images are sized like the
 * uploaded input (times `scale` for the upscaler), else by `aspect_ratio`.
 */

/** Inputs each modelled model requires; any other model requires `prompt` (a 422 names what is missing). */
const REQUIRED_INPUTS: Record<string, string[]> = {
  'black-forest-labs/flux-redux-dev': ['redux_image'],
  'flux-kontext-apps/multi-image-kontext-pro': ['prompt', 'input_image_1', 'input_image_2'],
  'nightmareai/real-esrgan': ['image'],
  'kwaivgi/kling-v2.1': ['prompt', 'start_image'],
};

const SINGLE_OUTPUT = new Set([
  'nightmareai/real-esrgan',
  'flux-kontext-apps/multi-image-kontext-pro',
  'kwaivgi/kling-v2.1',
]);
const VIDEO_MODELS = new Set(['kwaivgi/kling-v2.1']);

/** The LoRA trainer the fake runs trainings on, and the one version of it the fake knows. */
export const FLUX_LORA_TRAINER = 'ostris/flux-dev-lora-trainer';
export const FLUX_LORA_TRAINER_VERSION = 'e440909d3512c31646ee2e0c7d6f6f4923224863a6a10c494606e79fb5844497';

export interface ReplicateScenario {
  /** GET polls answering `starting` (queued / booting). Default 1. */
  startingPolls?: number;
  /** GET polls answering `processing`, with one more tqdm progress line each. Default 2. */
  processingPolls?: number;
  /**
   * How it ends. `failed`: a model error. `nsfw`: failed by the safety checker. `never`: processing forever.
   */
  outcome?: 'success' | 'failed' | 'nsfw' | 'never';
  /** Create answers 422 (input validation). */
  rejectAtCreate?: boolean;
  /** The first N creates / GETs of this prediction answer 500 before behaving normally. */
  createErrors?: number;
  getErrors?: number;
  /** Override the model's output shape: a URL, an array of URLs, or an object holding the URL(s). */
  output?: 'string' | 'array' | 'object';
}

/** A file uploaded through POST /v1/files. */
export interface ReplicateUpload {
  id: string;
  /** The multipart `content` part: its file name, Content-Type and bytes. */
  filename: string;
  contentType: string;
  bytes: Buffer;
  metadata: unknown;
  /** Decoded size, when the bytes are an image. */
  width?: number;
  height?: number;
  /** `urls.get`: what the prediction input should carry. */
  url: string;
}

export interface ReplicateFakePrediction {
  /** Trainings share the prediction envelope (and its scenarios), under /v1/trainings. */
  kind: 'prediction' | 'training';
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  webhook?: string;
  webhookEventsFilter?: string[];
  scenario: ReplicateScenario;
  polls: number;
  gets: number;
  canceled: boolean;
  startedAt?: string;
  createdAt: string;
  /** For a training: the model it writes its version into (`owner/name`). */
  destination?: string;
  /** For a training: the names in the `input_images` zip. */
  zipEntries?: string[];
}

/** A model created through POST /v1/models. */
export interface ReplicateFakeModel {
  owner: string;
  name: string;
  visibility: string;
  hardware: string;
  description?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ReplicateFake {
  /** Origin of the fake; the API is under `${url}/v1`. */
  url: string;
  /** The bearer token the fake accepts. */
  token: string;
  /** The webhook signing secret (`whsec_…`), also served at GET /v1/webhooks/default/secret. */
  webhookSecret: string;
  scenario(...next: ReplicateScenario[]): void;
  defaultScenario: ReplicateScenario;
  reset(): void;
  received: RecordedRequest[];
  predictions: Map<string, ReplicateFakePrediction>;
  trainings: Map<string, ReplicateFakePrediction>;
  /** Models created through POST /v1/models, by `owner/name`. */
  models: Map<string, ReplicateFakeModel>;
  /**
   * Which model a version id belongs to, for predictions created by version (`owner/name:version` in
   * the catalogue, as community models need); unknown versions run as `owner/model`.
   */
  versions: Map<string, string>;
  /** Files uploaded through POST /v1/files, in order. */
  uploads: ReplicateUpload[];
  /** The upload a file URL points at. */
  upload(fileUrl: unknown): ReplicateUpload | undefined;
  /** The MP4 bytes served for a video output. */
  videoBytes(): Buffer;
  /** The `trained_model.tar` bytes served as a training's `weights`. */
  weightsBytes(trainingId: string): Buffer;
  /** The prediction or training JSON as GET would show it now (without counting a poll). */
  snapshot(id: string): Record<string, unknown>;
  imageBytes(id: string, index?: number): Promise<Buffer>;
  /** A webhook delivery for the prediction's or training's current state: raw body and Standard-Webhooks headers. */
  signWebhook(
    id: string,
    options?: { timestamp?: number; webhookId?: string; secret?: string },
  ): { body: string; headers: Record<string, string> };
  /** POSTs that webhook to the `webhook` URL given at create (or `url`); resolves to the HTTP status. */
  sendWebhook(id: string, options?: { url?: string }): Promise<number>;
  fetch: typeof fetch;
  urlsSeen: string[];
  close(): Promise<void>;
}

const SIZES: Record<string, [number, number]> = {
  '1:1': [64, 64],
  '16:9': [64, 36],
  '9:16': [36, 64],
  '4:3': [64, 48],
  '3:4': [48, 64],
};

/** The predictions the fake received with this prompt (tests send prompts no other test sends). */
export const predictionsFor = (replicate: ReplicateFake, prompt: string): ReplicateFakePrediction[] =>
  [...replicate.predictions.values()].filter((p) => p.input.prompt === prompt);

export async function startReplicateFake(options: { token?: string } = {}): Promise<ReplicateFake> {
  const token = options.token ?? 'r8_fake_token';
  const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const predictions = new Map<string, ReplicateFakePrediction>();
  const trainings = new Map<string, ReplicateFakePrediction>();
  const models = new Map<string, ReplicateFakeModel>();
  const received: RecordedRequest[] = [];
  const pending: ReplicateScenario[] = [];
  const urlsSeen: string[] = [];
  const uploads: ReplicateUpload[] = [];
  let counter = 0;

  const fake: ReplicateFake = {
    url: '',
    token,
    webhookSecret,
    scenario: (...next) => void pending.push(...next),
    defaultScenario: {},
    reset: () => {
      pending.length = 0;
      fake.defaultScenario = {};
    },
    received,
    predictions,
    trainings,
    models,
    versions: new Map(),
    uploads,
    upload: (fileUrl) => uploads.find((u) => u.url === fileUrl),
    videoBytes: fakeMp4,
    weightsBytes: (id) => fakeWeights('tar', id),
    snapshot: (id) => view(mustGet(id)),
    imageBytes: (id, index = 0) => {
      const [w, h] = sizeOf(mustGet(id));
      return fakePng(w, h, index);
    },
    signWebhook: (id, opts = {}) => {
      const body = JSON.stringify(view(mustGet(id)));
      const webhookId = opts.webhookId ?? `msg_${randomBytes(12).toString('hex')}`;
      const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
      const key = Buffer.from((opts.secret ?? webhookSecret).split('_').pop()!, 'base64');
      const signature = createHmac('sha256', key)
        .update(`${webhookId}.${timestamp}.${body}`)
        .digest('base64');
      return {
        body,
        headers: {
          'content-type': 'application/json',
          'webhook-id': webhookId,
          'webhook-timestamp': timestamp,
          'webhook-signature': `v1,${signature}`,
        },
      };
    },
    sendWebhook: async (id, opts = {}) => {
      const target = opts.url ?? mustGet(id).webhook;
      if (!target) throw new Error(`prediction ${id} has no webhook`);
      const { body, headers } = fake.signWebhook(id);
      return (await fetch(target, { method: 'POST', headers, body })).status;
    },
    fetch: loopbackFetch(urlsSeen),
    urlsSeen,
    close: () => server.close(),
  };

  function mustGet(id: string): ReplicateFakePrediction {
    const p = predictions.get(id) ?? trainings.get(id);
    if (!p) throw new Error(`no prediction or training ${id}`);
    return p;
  }

  /** A succeeded training's new version of its destination model (stable per training). */
  function trainedVersion(p: ReplicateFakePrediction): string {
    return createHash('sha256').update(`version:${p.id}`).digest('hex');
  }

  function sizeOf(p: ReplicateFakePrediction): [number, number] {
    const source = fake.upload(p.input.image);
    if (source?.width && source.height) {
      const scale = p.model === 'nightmareai/real-esrgan' ? Number(p.input.scale ?? 4) : 1;
      return [source.width * scale, source.height * scale];
    }
    return SIZES[String(p.input.aspect_ratio)] ?? [64, 64];
  }

  function outputOf(p: ReplicateFakePrediction): unknown {
    const base = `${fake.url}/delivery/${p.id}`;
    if (p.kind === 'training') {
      return { version: `${p.destination}:${trainedVersion(p)}`, weights: `${base}/trained_model.tar` };
    }
    if (VIDEO_MODELS.has(p.model)) return shape(p, [`${base}/out.mp4`], 'string');
    const count = typeof p.input.num_outputs === 'number' ? p.input.num_outputs : 1;
    const urls = Array.from({ length: count }, (_, i) => `${base}/out-${i}.png`);
    return shape(p, urls, SINGLE_OUTPUT.has(p.model) ? 'string' : 'array');
  }

  function shape(p: ReplicateFakePrediction, urls: string[], natural: 'string' | 'array'): unknown {
    switch (p.scenario.output ?? natural) {
      case 'string':
        return urls[0];
      case 'object':
        return { files: urls, note: 'an object output holding the files' };
      default:
        return urls;
    }
  }

  function status(p: ReplicateFakePrediction): string {
    if (p.canceled) return 'canceled';
    const starting = p.scenario.startingPolls ?? 1;
    const processing = p.scenario.processingPolls ?? 2;
    if (p.polls <= starting) return 'starting';
    if (p.scenario.outcome === 'never' || p.polls <= starting + processing) return 'processing';
    return p.scenario.outcome === 'failed' || p.scenario.outcome === 'nsfw' ? 'failed' : 'succeeded';
  }

  function view(p: ReplicateFakePrediction): Record<string, unknown> {
    const s = status(p);
    const starting = p.scenario.startingPolls ?? 1;
    const total = p.scenario.processingPolls ?? 2;
    const done = Math.min(Math.max(p.polls - starting, 0), total);
    const logs = [
      // FLUX-style models print the seed they used; models without a seed input print none.
      ...(typeof p.input.seed === 'number' ? [`Using seed: ${p.input.seed}`] : []),
      ...Array.from({ length: done }, (_, i) => {
        const pct = Math.round(((i + 1) / total) * 100);
        return `${String(pct).padStart(3)}%|${'█'.repeat(Math.round(pct / 10)).padEnd(10)}| ${i + 1}/${total} [00:0${i}<00:01, 2.00it/s]`;
      }),
    ].join('\n');
    const terminal = s === 'succeeded' || s === 'failed' || s === 'canceled';
    const api = `${fake.url}/v1/${p.kind}s/${p.id}`;
    return {
      id: p.id,
      model: p.model,
      version: p.version,
      input: p.input,
      logs: s === 'starting' ? '' : logs,
      output: s === 'succeeded' ? outputOf(p) : null,
      ...(p.kind === 'prediction' ? { data_removed: false } : {}),
      error:
        s !== 'failed'
          ? null
          : p.scenario.outcome === 'nsfw'
            ? 'NSFW content detected. Try running it again, or try a different prompt.'
            : p.kind === 'training'
              ? 'Training failed: no images with a usable face were found in input_images'
              : 'CUDA out of memory. Tried to allocate 2.00 GiB',
      status: s,
      source: 'api',
      created_at: p.createdAt,
      ...(p.startedAt ? { started_at: p.startedAt } : {}),
      ...(terminal
        ? { completed_at: new Date().toISOString(), metrics: { predict_time: 0.01, total_time: 0.02 } }
        : {}),
      ...(p.webhook ? { webhook: p.webhook, webhook_events_filter: p.webhookEventsFilter } : {}),
      urls: {
        get: api,
        cancel: `${api}/cancel`,
        web: `https://replicate.com/${p.kind === 'training' ? 'trainings' : 'p'}/${p.id}`,
      },
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const { raw, body, url, method } = await readRequest(req, fake.url);
    received.push({ method, path: url.pathname, headers: req.headers, body });
    const parts = url.pathname.split('/').filter(Boolean);

    // replicate.delivery stand-in: public, no auth.
    if (method === 'GET' && parts[0] === 'delivery' && parts.length === 3) {
      const training = trainings.get(parts[1]!);
      if (training && parts[2] === 'trained_model.tar' && status(training) === 'succeeded') {
        const tar = fake.weightsBytes(training.id);
        res.writeHead(200, { 'content-type': 'application/x-tar', 'content-length': tar.length });
        return res.end(tar);
      }
      const p = predictions.get(parts[1]!);
      if (p && parts[2] === 'out.mp4') {
        const video = fakeMp4();
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': video.length });
        return res.end(video);
      }
      const index = /^out-(\d+)\.png$/.exec(parts[2]!)?.[1];
      if (!p || index === undefined) return sendJson(res, 404, { detail: 'Not found' });
      const png = await fake.imageBytes(p.id, Number(index));
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
      return res.end(png);
    }
    if (parts[0] !== 'v1') return sendJson(res, 404, { detail: 'Not found' });
    if (req.headers.authorization !== `Bearer ${token}`) {
      return sendJson(res, 401, {
        title: 'Unauthenticated',
        detail: 'You did not pass a valid authentication token',
        status: 401,
      });
    }
    const route = parts.slice(1);

    if (method === 'GET' && route.join('/') === 'webhooks/default/secret')
      return sendJson(res, 200, { key: webhookSecret });

    // Files API: POST /v1/files (multipart: `content` + `metadata`), GET / DELETE /v1/files/{id}.
    if (method === 'POST' && route.length === 1 && route[0] === 'files') {
      const form = await new Response(raw, {
        headers: { 'content-type': req.headers['content-type'] ?? '' },
      })
        .formData()
        .catch(() => undefined);
      const content = form?.get('content');
      if (!(content instanceof Blob)) {
        return sendJson(res, 400, {
          title: 'Bad request',
          detail: 'content: a file is required',
          status: 400,
        });
      }
      const metadata = form?.get('metadata');
      const bytes = Buffer.from(await content.arrayBuffer());
      const meta = await sharp(bytes)
        .metadata()
        .catch(() => undefined);
      const id = randomBytes(13).toString('hex');
      const upload: ReplicateUpload = {
        id,
        filename: content instanceof File ? content.name : 'blob',
        contentType: content.type || 'application/octet-stream',
        bytes,
        metadata: metadata instanceof Blob ? JSON.parse(await metadata.text()) : {},
        width: meta?.width,
        height: meta?.height,
        url: `${fake.url}/v1/files/${id}`,
      };
      uploads.push(upload);
      return sendJson(res, 201, fileView(upload));
    }
    if (route[0] === 'files' && route.length === 2) {
      const upload = uploads.find((u) => u.id === route[1]);
      if (!upload) return sendJson(res, 404, { title: 'Not found', detail: 'Not found', status: 404 });
      if (method === 'GET') return sendJson(res, 200, fileView(upload));
      if (method === 'DELETE') {
        uploads.splice(uploads.indexOf(upload), 1);
        res.writeHead(204);
        return res.end();
      }
    }

    // POST /v1/models (a destination for trainings), GET /v1/models/{owner}/{name}.
    if (method === 'POST' && route.length === 1 && route[0] === 'models') {
      const data = JSON.parse(body || '{}') as Partial<ReplicateFakeModel>;
      const missing = (['owner', 'name', 'visibility', 'hardware'] as const).filter((f) => !data[f]);
      if (missing.length > 0) {
        return sendJson(res, 422, {
          title: 'Input validation failed',
          detail: missing.map((f) => `- ${f}: ${f} is required`).join('\n'),
          status: 422,
        });
      }
      const key = `${data.owner}/${data.name}`;
      if (models.has(key)) {
        return sendJson(res, 409, {
          title: 'Conflict',
          detail: `A model named ${key} already exists`,
          status: 409,
        });
      }
      const model = data as ReplicateFakeModel;
      models.set(key, model);
      return sendJson(res, 201, modelView(model, undefined));
    }
    if (method === 'GET' && route[0] === 'models' && route.length === 3) {
      const key = `${route[1]}/${route[2]}`;
      if (key === FLUX_LORA_TRAINER) {
        return sendJson(
          res,
          200,
          modelView(
            { owner: route[1]!, name: route[2]!, visibility: 'public', hardware: 'gpu-h100' },
            FLUX_LORA_TRAINER_VERSION,
          ),
        );
      }
      const model = models.get(key);
      if (!model) return sendJson(res, 404, { title: 'Not found', detail: 'Not found', status: 404 });
      const latest = [...trainings.values()]
        .filter((t) => t.destination === key && status(t) === 'succeeded')
        .at(-1);
      return sendJson(res, 200, modelView(model, latest && trainedVersion(latest)));
    }

    // POST /v1/models/{owner}/{name}/versions/{version}/trainings
    if (method === 'POST' && route[0] === 'models' && route[3] === 'versions' && route[5] === 'trainings') {
      const trainer = `${route[1]}/${route[2]}`;
      if (trainer !== FLUX_LORA_TRAINER || route[4] !== FLUX_LORA_TRAINER_VERSION) {
        return sendJson(res, 404, {
          title: 'Not found',
          detail: `No version ${route[4]} of ${trainer}`,
          status: 404,
        });
      }
      const data = JSON.parse(body || '{}') as {
        destination?: string;
        input?: Record<string, unknown>;
        webhook?: string;
        webhook_events_filter?: string[];
      };
      if (!data.destination || !models.has(data.destination)) {
        return sendJson(res, 404, {
          title: 'Invalid destination',
          detail: `The destination model ${data.destination} does not exist`,
          status: 404,
        });
      }
      const input = data.input ?? {};
      const zipEntries = zipEntryNames(fake.upload(input.input_images)?.bytes);
      if (!zipEntries) {
        return sendJson(res, 422, {
          title: 'Input validation failed',
          detail: '- input.input_images: must be a zip file URL',
          status: 422,
          invalid_fields: [
            { type: 'format', field: 'input.input_images', description: 'must be a zip file URL' },
          ],
        });
      }
      const scenario = { ...(pending.shift() ?? fake.defaultScenario) };
      if ((scenario.createErrors ?? 0) > 0) {
        pending.unshift({ ...scenario, createErrors: scenario.createErrors! - 1 });
        return sendJson(res, 500, {
          title: 'Internal Server Error',
          detail: 'Something went wrong',
          status: 500,
        });
      }
      const t: ReplicateFakePrediction = {
        kind: 'training',
        id: `train${(++counter).toString(36).padStart(6, '0')}${randomBytes(8).toString('hex')}`,
        model: trainer,
        version: FLUX_LORA_TRAINER_VERSION,
        input,
        webhook: data.webhook,
        webhookEventsFilter: data.webhook_events_filter,
        scenario,
        polls: 0,
        gets: 0,
        canceled: false,
        createdAt: new Date().toISOString(),
        destination: data.destination,
        zipEntries,
      };
      trainings.set(t.id, t);
      return sendJson(res, 201, view(t));
    }

    // GET /v1/trainings/{id}, POST /v1/trainings/{id}/cancel
    if (route[0] === 'trainings' && route[1]) {
      const t = trainings.get(route[1]);
      if (!t) {
        return sendJson(res, 404, {
          title: 'Not found',
          detail: 'The requested resource could not be found.',
          status: 404,
        });
      }
      if (method === 'GET' && route.length === 2) return sendJson(res, 200, poll(t));
      if (method === 'POST' && route[2] === 'cancel' && route.length === 3)
        return sendJson(res, 200, cancel(t));
    }

    // POST /v1/models/{owner}/{name}/predictions | POST /v1/predictions
    const byModel =
      method === 'POST' && route[0] === 'models' && route[3] === 'predictions' && route.length === 4;
    if (byModel || (method === 'POST' && route.length === 1 && route[0] === 'predictions')) {
      const data = JSON.parse(body || '{}') as {
        version?: string;
        input?: Record<string, unknown>;
        webhook?: string;
        webhook_events_filter?: string[];
      };
      const scenario = { ...(pending.shift() ?? fake.defaultScenario) };
      if ((scenario.createErrors ?? 0) > 0) {
        pending.unshift({ ...scenario, createErrors: scenario.createErrors! - 1 });
        return sendJson(res, 500, {
          title: 'Internal Server Error',
          detail: 'Something went wrong',
          status: 500,
        });
      }
      const model = byModel
        ? `${route[1]}/${route[2]}`
        : (fake.versions.get(String(data.version)) ?? 'owner/model');
      const invalid = invalidInputs(model, data.input ?? {});
      if (invalid.length > 0) {
        return sendJson(res, 422, {
          title: 'Input validation failed',
          detail: invalid.map((i) => `- ${i.field}: ${i.description}`).join('\n'),
          status: 422,
          invalid_fields: invalid,
        });
      }
      if (scenario.rejectAtCreate) {
        return sendJson(res, 422, {
          title: 'Input validation failed',
          detail: '- input.num_outputs: Must be less than or equal to 4',
          status: 422,
          invalid_fields: [
            {
              type: 'less_than_equal',
              field: 'input.num_outputs',
              description: 'Must be less than or equal to 4',
            },
          ],
        });
      }
      const p: ReplicateFakePrediction = {
        kind: 'prediction',
        id: `fake${(++counter).toString(36).padStart(6, '0')}${randomBytes(8).toString('hex')}`,
        model,
        version: byModel ? 'hidden' : String(data.version),
        input: data.input ?? {},
        webhook: data.webhook,
        webhookEventsFilter: data.webhook_events_filter,
        scenario,
        polls: 0,
        gets: 0,
        canceled: false,
        createdAt: new Date().toISOString(),
      };
      predictions.set(p.id, p);
      return sendJson(res, 201, view(p));
    }

    if (route[0] === 'predictions' && route[1]) {
      const p = predictions.get(route[1]);
      if (!p)
        return sendJson(res, 404, {
          title: 'Not found',
          detail: 'The requested resource could not be found.',
          status: 404,
        });
      if (method === 'GET' && route.length === 2) {
        if ((p.scenario.getErrors ?? 0) > 0) {
          p.gets++;
          p.scenario.getErrors!--;
          return sendJson(res, 500, { title: 'Internal Server Error', status: 500 });
        }
        return sendJson(res, 200, poll(p));
      }
      if (method === 'POST' && route[2] === 'cancel' && route.length === 3)
        return sendJson(res, 200, cancel(p));
    }
    return sendJson(res, 404, {
      title: 'Not found',
      detail: 'The requested resource could not be found.',
      status: 404,
    });
  }

  /** One GET: advances the scripted run; a training that succeeds registers its new version. */
  function poll(p: ReplicateFakePrediction) {
    p.gets++;
    p.polls++;
    const s = status(p);
    if (s === 'processing') p.startedAt ??= new Date().toISOString();
    if (s === 'succeeded' && p.kind === 'training') fake.versions.set(trainedVersion(p), p.destination!);
    return view(p);
  }

  function cancel(p: ReplicateFakePrediction) {
    const s = status(p);
    if (s === 'starting' || s === 'processing') p.canceled = true;
    return view(p);
  }

  const server = await startFakeServer(handle);
  fake.url = server.url;
  return fake;
}

function modelView(model: ReplicateFakeModel, latestVersion: string | undefined) {
  return {
    url: `https://replicate.com/${model.owner}/${model.name}`,
    owner: model.owner,
    name: model.name,
    description: model.description ?? null,
    visibility: model.visibility,
    run_count: 0,
    latest_version: latestVersion
      ? { id: latestVersion, created_at: new Date().toISOString(), cog_version: '0.9.0', openapi_schema: {} }
      : null,
  };
}

function fileView(upload: ReplicateUpload) {
  const created = new Date();
  return {
    id: upload.id,
    content_type: upload.contentType,
    size: upload.bytes.length,
    checksums: { sha256: createHash('sha256').update(upload.bytes).digest('hex') },
    metadata: upload.metadata,
    created_at: created.toISOString(),
    expires_at: new Date(created.getTime() + 86_400_000).toISOString(),
    urls: { get: upload.url },
  };
}

/** Replicate-style `invalid_fields` for the modelled models: missing inputs, Kling's integer durations. */
function invalidInputs(model: string, input: Record<string, unknown>) {
  const invalid = (REQUIRED_INPUTS[model] ?? ['prompt'])
    .filter((field) => typeof input[field] !== 'string' || input[field] === '')
    .map((field) => ({ type: 'required', field: `input.${field}`, description: `${field} is required` }));
  if (
    model === 'kwaivgi/kling-v2.1' &&
    input.duration !== undefined &&
    ![5, 10].includes(input.duration as number)
  ) {
    invalid.push({
      type: 'enum',
      field: 'input.duration',
      description: 'duration must be one of the following: 5, 10',
    });
  }
  return invalid;
}
