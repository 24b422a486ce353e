import type { IncomingMessage, ServerResponse } from 'node:http';
import sharp from 'sharp';
import { basicCredentials, readRequest, sendJson, startFakeServer } from './http.ts';
import { fakePng, loopbackFetch } from './png.ts';

/**
 * A fake AUTOMATIC1111 server speaking its `--api` protocol (docs/reference/providers/self-hosted.md
 * part B) on 127.0.0.1: the synchronous `/sdapi/v1/txt2img`, `/img2img` and `/extra-single-image` block
 * for the scenario's steps while `/sdapi/v1/progress` reports the step and a `current_image` preview;
 * `/sdapi/v1/interrupt` makes the blocked call return early (with what it has, as A1111 does);
 * `/internal/progress` answers for a `force_task_id`. With `auth` set every call needs that HTTP Basic
 * `user:pass` (`--api-auth`), else 401.
 */

export interface A1111Scenario {
  /** Sampling steps the call takes. Default 3. */
  steps?: number;
  /** Time per step. Default 10 ms. */
  stepMs?: number;
  /**
   * `ok`; `error`: 500 with A1111's exception body after the steps; `refused`: 404 "Sampler not found"
   * at once (A1111's answer to a sampler it does not have); `drop`: the socket is destroyed mid-job.
   */
  outcome?: 'ok' | 'error' | 'refused' | 'drop';
  /** Whether `/sdapi/v1/progress` sends `current_image` while this call runs. Default true. */
  previews?: boolean;
}

export interface A1111FakeCall {
  path: string;
  body: Record<string, unknown>;
  taskId?: string;
  scenario: A1111Scenario;
  step: number;
  interrupted: boolean;
  /** Waiting for the GPU: A1111 runs one generation at a time (its queue lock), the others wait. */
  queued: boolean;
  /** Set when the call has answered (or was dropped). */
  ended: boolean;
  /** The images answered (base64 PNGs), grid included. */
  answered: string[];
}

export interface A1111Fake {
  url: string;
  /** `user:pass` the fake requires, when started with auth. */
  auth?: string;
  calls: A1111FakeCall[];
  interrupts: number;
  progressPolls: number;
  urlsSeen: string[];
  fetch: typeof fetch;
  defaultScenario: A1111Scenario;
  /** The scenario of the next generation call (then back to the default). */
  scenario(s: A1111Scenario): void;
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startA1111Fake(options: { auth?: string } = {}): Promise<A1111Fake> {
  const queued: A1111Scenario[] = [];
  let current: A1111FakeCall | undefined;
  let gpu = Promise.resolve();
  const fake: A1111Fake = {
    url: '',
    close: () => Promise.resolve(),
    auth: options.auth,
    calls: [],
    interrupts: 0,
    progressPolls: 0,
    urlsSeen: [],
    fetch: undefined as unknown as typeof fetch,
    defaultScenario: {},
    scenario: (s) => queued.push(s),
    reset() {
      // A call a test left running must not hold the GPU for the next test.
      for (const call of fake.calls) call.interrupted = true;
      queued.length = 0;
      fake.calls.length = 0;
      fake.interrupts = 0;
      fake.progressPolls = 0;
      fake.urlsSeen.length = 0;
      fake.defaultScenario = {};
    },
  };
  fake.fetch = loopbackFetch(fake.urlsSeen);

  const server = await startFakeServer(async (req: IncomingMessage, res: ServerResponse) => {
    const { body, url, method } = await readRequest(req, 'http://127.0.0.1');
    if (options.auth) {
      const credentials = basicCredentials(req);
      if (!credentials || credentials.join(':') !== options.auth) {
        return sendJson(
          res,
          401,
          { detail: 'Incorrect username or password' },
          { 'www-authenticate': 'Basic' },
        );
      }
    }
    const json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    const route = `${method} ${url.pathname}`;
    switch (route) {
      case 'GET /sdapi/v1/progress': {
        fake.progressPolls++;
        const running = current && !current.ended ? current : undefined;
        const steps = running?.scenario.steps ?? 3;
        return sendJson(res, 200, {
          progress: running ? running.step / steps : 0,
          eta_relative: running ? (steps - running.step) * ((running.scenario.stepMs ?? 10) / 1000) : 0,
          state: {
            skipped: false,
            interrupted: running?.interrupted ?? false,
            job: running ? 'scripts_txt2img' : '',
            job_count: running ? 1 : 0,
            job_no: 0,
            sampling_step: running?.step ?? 0,
            sampling_steps: running ? steps : 0,
          },
          // A preview once sampling has begun: a different small PNG per step.
          current_image:
            running &&
            running.step > 0 &&
            running.scenario.previews !== false &&
            url.searchParams.get('skip_current_image') !== 'true'
              ? (await fakePng(16, 16, running.step)).toString('base64')
              : null,
          textinfo: null,
        });
      }
      case 'POST /internal/progress': {
        const call = fake.calls.find((c) => c.taskId === json.id_task);
        return sendJson(res, 200, {
          active: Boolean(call && !call.ended && !call.queued),
          queued: Boolean(call?.queued),
          completed: Boolean(call?.ended),
          progress: null,
          eta: null,
          live_preview: null,
          id_live_preview: -1,
          textinfo: call ? 'In progress' : 'Waiting...',
        });
      }
      case 'POST /sdapi/v1/interrupt':
        fake.interrupts++;
        if (current && !current.ended) current.interrupted = true;
        return sendJson(res, 200, null);
      case 'POST /sdapi/v1/txt2img':
      case 'POST /sdapi/v1/img2img':
      case 'POST /sdapi/v1/extra-single-image':
        return generate(url.pathname, json, req, res);
      default:
        return sendJson(res, 404, { detail: 'Not Found' });
    }
  });

  async function generate(
    path: string,
    body: Record<string, unknown>,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    const scenario = { ...fake.defaultScenario, ...queued.shift() };
    const call: A1111FakeCall = {
      path,
      body,
      taskId: typeof body.force_task_id === 'string' ? body.force_task_id : undefined,
      scenario,
      step: 0,
      interrupted: false,
      queued: false,
      ended: false,
      answered: [],
    };
    fake.calls.push(call);
    if (scenario.outcome === 'refused') {
      call.ended = true;
      return sendJson(res, 404, { detail: 'Sampler not found' });
    }
    // One generation at a time, like A1111's queue lock: later calls wait (queued) for the GPU.
    const previous = gpu;
    let release!: () => void;
    gpu = new Promise<void>((resolve) => (release = resolve));
    call.queued = true;
    await previous;
    call.queued = false;
    try {
      current = call;
      const steps = scenario.steps ?? 3;
      while (call.step < steps && !call.interrupted) {
        await sleep(scenario.stepMs ?? 10);
        call.step++;
        if (scenario.outcome === 'drop' && call.step >= Math.ceil(steps / 2)) {
          call.ended = true;
          req.socket.destroy();
          return;
        }
      }
      call.ended = true;
    } finally {
      release();
    }
    if (scenario.outcome === 'error') {
      return sendJson(res, 500, {
        error: 'OutOfMemoryError',
        detail: '',
        body: '',
        errors: 'CUDA out of memory. Tried to allocate 2.00 GiB',
      });
    }
    if (path === '/sdapi/v1/extra-single-image') {
      const input = Buffer.from(String(body.image), 'base64');
      const meta = await sharp(input).metadata();
      const factor = Number(body.upscaling_resize ?? 2);
      const out = await fakePng((meta.width ?? 8) * factor, (meta.height ?? 8) * factor, 7);
      call.answered = [out.toString('base64')];
      return sendJson(res, 200, { image: call.answered[0], html_info: '<p>R-ESRGAN 4x+</p>' });
    }
    const width = Number(body.width ?? 512);
    const height = Number(body.height ?? 512);
    const count = Number(body.batch_size ?? 1) * Number(body.n_iter ?? 1);
    const seed = Number(body.seed) >= 0 ? Number(body.seed) : 1234;
    const images = await Promise.all(Array.from({ length: count }, (_, i) => fakePng(width, height, i + 1)));
    // With more than one image A1111 puts a grid of them first (`return_grid`), as index_of_first_image says.
    const grid = count > 1 ? [await fakePng(width, height, 99)] : [];
    call.answered = [...grid, ...images].map((b) => b.toString('base64'));
    return sendJson(res, 200, {
      images: call.answered,
      parameters: body,
      info: JSON.stringify({
        prompt: body.prompt,
        seed,
        all_seeds: Array.from({ length: count }, (_, i) => seed + i),
        width,
        height,
        index_of_first_image: grid.length,
      }),
    });
  }

  fake.url = server.url;
  fake.close = server.close;
  return fake;
}
