import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { WebSocketServer, type WebSocket } from 'ws';
import { readBytes, sendJson } from './http.ts';
import { fakePng } from './png.ts';

/**
 * A fake ComfyUI server speaking its real protocol (docs/reference/providers/self-hosted.md §C) over
 * HTTP and the /ws WebSocket, on 127.0.0.1: POST /prompt (validates the graph's links, 400 on a broken
 * one), one prompt at a time executed with `status` (queue_remaining), `execution_start`, step `progress`
 * events, a binary preview frame, `executed` and `executing {node: null}` sent to the submitting
 * client's sockets; /history/{id}, /view, /upload/image (multipart), /queue (list, delete), /interrupt.
 *
 * Modes: `success`; `error` (an execution_error after the first step); `gone` (the server closes every
 * socket and stops answering mid-job); `drop` (the sockets close mid-job but the prompt carries on,
 * like a network blip: a resumed run must collect it without resubmitting).
 */
export type ComfyMode = 'success' | 'error' | 'gone' | 'drop';

interface FakePrompt {
  id: string;
  clientId: string;
  graph: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  status: 'pending' | 'running' | 'success' | 'error' | 'interrupted';
}

export interface FakeComfy {
  url: string;
  mode: ComfyMode;
  /** Steps per prompt and the pause between them. */
  steps: number;
  stepMs: number;
  /** While true, prompts stay pending (queued) until `release()`. */
  hold: boolean;
  prompts: FakePrompt[];
  uploads: Map<string, Buffer>;
  /** Every request as "METHOD /path". */
  calls: string[];
  /** Binary preview frames sent. */
  previewsSent: number;
  interrupts: number;
  release(): void;
  close(): Promise<void>;
}

export async function startFakeComfy(
  options: Partial<Pick<FakeComfy, 'mode' | 'steps' | 'stepMs' | 'hold'>> = {},
) {
  const sockets = new Map<string, Set<WebSocket>>();
  const history = new Map<string, unknown>();
  let running: FakePrompt | undefined;
  let interruptRequested = false;
  let down = false;

  const fake: FakeComfy = {
    url: '',
    mode: options.mode ?? 'success',
    steps: options.steps ?? 4,
    stepMs: options.stepMs ?? 15,
    hold: options.hold ?? false,
    prompts: [],
    uploads: new Map(),
    calls: [],
    previewsSent: 0,
    interrupts: 0,
    release() {
      fake.hold = false;
      void pump();
    },
    close: async () => {
      down = true;
      for (const set of sockets.values()) for (const s of set) s.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const pending = () => fake.prompts.filter((p) => p.status === 'pending');
  const send = (clientId: string | undefined, message: unknown) => {
    const text = JSON.stringify(message);
    const targets = clientId ? (sockets.get(clientId) ?? []) : [...sockets.values()].flatMap((s) => [...s]);
    for (const s of targets) s.send(text);
  };
  const status = () =>
    send(undefined, {
      type: 'status',
      data: { status: { exec_info: { queue_remaining: pending().length + (running ? 1 : 0) } } },
    });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function pump() {
    if (running || fake.hold || down) return;
    const next = pending()[0];
    if (!next) return;
    running = next;
    next.status = 'running';
    interruptRequested = false;
    const c = next.clientId;
    const pid = next.id;
    try {
      send(c, { type: 'execution_start', data: { prompt_id: pid, timestamp: Date.now() } });
      send(c, { type: 'executing', data: { node: '3', display_node: '3', prompt_id: pid } });
      for (let step = 1; step <= fake.steps; step++) {
        await sleep(fake.stepMs);
        if (down) return;
        if (interruptRequested) {
          next.status = 'interrupted';
          send(c, {
            type: 'execution_interrupted',
            data: { prompt_id: pid, node_id: '3', node_type: 'KSampler', executed: [] },
          });
          history.set(pid, entry(next, {}, 'error', [['execution_interrupted', { prompt_id: pid }]]));
          return;
        }
        send(c, { type: 'progress', data: { value: step, max: fake.steps, prompt_id: pid, node: '3' } });
        // A preview frame each step: event 1 (PREVIEW_IMAGE), format 1 (JPEG), then the image.
        const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#3366cc' } })
          .jpeg()
          .toBuffer();
        const head = Buffer.alloc(8);
        head.writeUInt32BE(1, 0);
        head.writeUInt32BE(1, 4);
        for (const s of sockets.get(c) ?? []) s.send(Buffer.concat([head, jpeg]), { binary: true });
        fake.previewsSent++;
        if (step === 1) {
          if (fake.mode === 'error') {
            next.status = 'error';
            const error = {
              prompt_id: pid,
              node_id: '3',
              node_type: 'KSampler',
              exception_message: 'CUDA out of memory. Tried to allocate 2.00 GiB',
              exception_type: 'torch.OutOfMemoryError',
              traceback: [],
            };
            send(c, { type: 'execution_error', data: error });
            history.set(pid, entry(next, {}, 'error', [['execution_error', error]]));
            return;
          }
          if (fake.mode === 'gone') {
            down = true;
            for (const set of sockets.values()) for (const s of set) s.terminate();
            server.closeAllConnections();
            return;
          }
          if (fake.mode === 'drop') {
            for (const set of sockets.values()) for (const s of set) s.terminate();
          }
        }
      }
      const saver = Object.entries(next.graph).find(([, n]) => n.class_type === 'SaveImage')?.[0] ?? '9';
      const latent = Object.values(next.graph).find((n) => n.class_type === 'EmptyLatentImage')?.inputs;
      const batch = Number(latent?.batch_size ?? 1);
      const images = Array.from({ length: batch }, (_, i) => ({
        filename: `lumina_${pid.slice(0, 8)}_${i}.png`,
        subfolder: '',
        type: 'output',
      }));
      send(c, {
        type: 'executed',
        data: { node: saver, display_node: saver, output: { images }, prompt_id: pid },
      });
      next.status = 'success';
      history.set(
        pid,
        entry(next, { [saver]: { images } }, 'success', [['execution_success', { prompt_id: pid }]]),
      );
      send(c, { type: 'executing', data: { node: null, prompt_id: pid } });
      send(c, { type: 'execution_success', data: { prompt_id: pid } });
    } finally {
      running = undefined;
      if (!down) {
        status();
        void pump();
      }
    }
  }

  const entry = (p: FakePrompt, outputs: unknown, str: 'success' | 'error', messages: unknown[]) => ({
    prompt: [0, p.id, p.graph, { client_id: p.clientId }, []],
    outputs,
    status: { status_str: str, completed: str === 'success', messages },
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/api(?=\/)/, '');
    fake.calls.push(`${req.method} ${path}`);
    if (req.method === 'POST' && path === '/prompt') {
      const body = JSON.parse((await readBytes(req)).toString('utf8') || '{}') as {
        prompt?: FakePrompt['graph'];
        client_id?: string;
      };
      if (!body.prompt) return sendJson(res, 400, { error: 'no prompt', node_errors: [] });
      const problem = validate(body.prompt);
      if (problem) {
        return sendJson(res, 400, {
          error: {
            type: 'prompt_outputs_failed_validation',
            message: 'Prompt outputs failed validation',
            details: '',
            extra_info: {},
          },
          node_errors: {
            [problem.node]: {
              errors: [{ type: 'bad_link', message: problem.message, details: '' }],
              class_type: problem.classType,
            },
          },
        });
      }
      const prompt: FakePrompt = {
        id: randomUUID(),
        clientId: body.client_id ?? '',
        graph: body.prompt,
        status: 'pending',
      };
      fake.prompts.push(prompt);
      status();
      setImmediate(() => void pump());
      return sendJson(res, 200, { prompt_id: prompt.id, number: fake.prompts.length, node_errors: {} });
    }
    if (req.method === 'GET' && path.startsWith('/history/')) {
      const id = decodeURIComponent(path.slice('/history/'.length));
      const h = history.get(id);
      return sendJson(res, 200, h ? { [id]: h } : {});
    }
    if (req.method === 'GET' && path === '/view') {
      const name = url.searchParams.get('filename') ?? '';
      const index = Number(/_(\d+)\.png$/.exec(name)?.[1] ?? 0);
      const prompt = fake.prompts.find((p) => name.includes(p.id.slice(0, 8)));
      const latent =
        prompt && Object.values(prompt.graph).find((n) => n.class_type === 'EmptyLatentImage')?.inputs;
      const png = await fakePng(Number(latent?.width ?? 64), Number(latent?.height ?? 64), index);
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(png);
    }
    if (req.method === 'POST' && path === '/upload/image') {
      const raw = await readBytes(req);
      const type = req.headers['content-type'] ?? '';
      const boundary = /boundary=(.+)$/.exec(type)?.[1];
      if (!boundary) return sendJson(res, 400, { error: 'not multipart' });
      const parts = raw.toString('latin1').split(`--${boundary}`);
      const part = parts.find((p) => /name="image"/.test(p));
      const name = part && /filename="([^"]+)"/.exec(part)?.[1];
      if (!part || !name) return res.writeHead(400).end();
      const start = part.indexOf('\r\n\r\n') + 4;
      fake.uploads.set(name, Buffer.from(part.slice(start, part.length - 2), 'latin1'));
      return sendJson(res, 200, { name, subfolder: '', type: 'input' });
    }
    if (req.method === 'GET' && path === '/queue') {
      const item = (p: FakePrompt, i: number) => [i, p.id, p.graph, { client_id: p.clientId }, []];
      return sendJson(res, 200, {
        queue_running: running ? [item(running, 0)] : [],
        queue_pending: pending().map((p, i) => item(p, i + 1)),
      });
    }
    if (req.method === 'POST' && path === '/queue') {
      const body = JSON.parse((await readBytes(req)).toString('utf8') || '{}') as { delete?: string[] };
      for (const id of body.delete ?? []) {
        const i = fake.prompts.findIndex((p) => p.id === id && p.status === 'pending');
        if (i >= 0) fake.prompts.splice(i, 1);
      }
      status();
      return res.writeHead(200).end();
    }
    if (req.method === 'POST' && path === '/interrupt') {
      await readBytes(req);
      fake.interrupts++;
      if (running) interruptRequested = true;
      return res.writeHead(200).end();
    }
    return sendJson(res, 404, { error: `no route ${req.method} ${path}` });
  }

  const server = createServer((req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.end();
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (down || url.pathname.replace(/^\/api/, '') !== '/ws') return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      const clientId = url.searchParams.get('clientId') || randomUUID();
      let set = sockets.get(clientId);
      if (!set) sockets.set(clientId, (set = new Set()));
      set.add(ws);
      ws.on('close', () => set.delete(ws));
      ws.send(
        JSON.stringify({
          type: 'status',
          data: {
            status: { exec_info: { queue_remaining: pending().length + (running ? 1 : 0) } },
            sid: clientId,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** Like ComfyUI's validation: every link names an existing node. */
function validate(
  graph: FakePrompt['graph'],
): { node: string; classType: string; message: string } | undefined {
  for (const [id, node] of Object.entries(graph)) {
    if (!node || typeof node.class_type !== 'string')
      return { node: id, classType: '?', message: 'missing class_type' };
    for (const [input, value] of Object.entries(node.inputs ?? {})) {
      if (Array.isArray(value) && typeof value[0] === 'string' && !graph[value[0]]) {
        return {
          node: id,
          classType: node.class_type,
          message: `Required input is missing: ${input} links to node ${value[0]}, which does not exist`,
        };
      }
    }
  }
  return undefined;
}
