import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeComfy, type FakeComfy } from '../../../../test/fakes/comfyui-server.ts';
import { startFakeServer } from '../../../../test/fakes/http.ts';
import { fakePng, loopbackFetch } from '../../../../test/fakes/png.ts';
import { ConfigError, loadConfig } from '../../../config.ts';
import { ProviderError, type ProgressUpdate, type RunContext } from '../text-to-image.ts';
import type { ComfyOptions } from './comfyui.client.ts';
import { ComfyImageTools } from './comfyui.image-tools.ts';
import { ComfyTextToImage } from './comfyui.text-to-image.ts';
import { comfyCatalogueProblem, loadWorkflows, readWorkflow, WorkflowError } from './workflows.ts';

let fake: FakeComfy | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function options(url: string, extra: Partial<ComfyOptions> = {}): ComfyOptions {
  return {
    baseUrl: url,
    workflows: loadWorkflows(),
    timeoutMs: 10_000,
    pollIntervalMs: 200,
    fetchFn: loopbackFetch([]),
    ...extra,
  };
}

function context(extra: Partial<RunContext> = {}) {
  const updates: ProgressUpdate[] = [];
  const submitted: string[] = [];
  const ctx: RunContext = {
    signal: new AbortController().signal,
    onProgress: (u) => void updates.push(u),
    onSubmitted: (id) => void submitted.push(id),
    ...extra,
  };
  return { ctx, updates, submitted };
}

const request = {
  providerModel: 'sdxl-txt2img',
  prompt: 'a lighthouse at dusk',
  negativePrompt: 'blurry',
  seed: 1234,
  width: 512,
  height: 384,
  numImages: 2,
};

describe('ComfyUI text-to-image', () => {
  it('submits the filled workflow, reports queue, steps and a preview, and downloads the outputs', async () => {
    fake = await startFakeComfy({ steps: 4 });
    const adapter = new ComfyTextToImage(options(fake.url));
    const { ctx, updates, submitted } = context();
    const result = await adapter.run(request, ctx);

    expect(fake.prompts).toHaveLength(1);
    const graph = fake.prompts[0]!.graph;
    expect(graph['6']!.inputs.text).toBe('a lighthouse at dusk');
    expect(graph['7']!.inputs.text).toBe('blurry');
    expect(graph['3']!.inputs.seed).toBe(1234);
    expect(graph['5']!.inputs).toMatchObject({ width: 512, height: 384, batch_size: 2 });
    expect(submitted).toEqual([result.requestId]);
    expect(result.requestId.startsWith(fake.prompts[0]!.id)).toBe(true);
    expect(result.images).toHaveLength(2);
    expect(result.images[0]).toMatchObject({ contentType: 'image/png', width: 512, height: 384 });
    expect(result.images[0]!.bytes.equals(await fakePng(512, 384, 0))).toBe(true);
    expect(result.seed).toBe(1234);

    expect(updates.some((u) => u.status === 'queued' && typeof u.queuePosition === 'number')).toBe(true);
    const percents = updates.filter((u) => u.percent !== undefined).map((u) => u.percent);
    expect(percents).toContain(50);
    expect(updates.some((u) => u.message === 'step 4/4')).toBe(true);
    const preview = updates.find((u) => u.preview)?.preview;
    expect(preview?.contentType).toBe('image/jpeg');
    expect((await sharp(preview!.bytes).metadata()).format).toBe('jpeg');
  });

  it('fails with the server’s message on execution_error, as a refusal (no retry)', async () => {
    fake = await startFakeComfy({ mode: 'error' });
    const adapter = new ComfyTextToImage(options(fake.url));
    const err = await adapter.run(request, context().ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('rejected');
    expect((err as ProviderError).userMessage).toContain('CUDA out of memory');
  });

  it('turns a 400 invalid graph into a clear refusal naming the node', async () => {
    fake = await startFakeComfy();
    const dir = mkdtempSync(join(tmpdir(), 'comfy-wf-'));
    writeFileSync(
      join(dir, 'broken.json'),
      JSON.stringify({
        graph: {
          '6': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['4', 1] } },
          '3': { class_type: 'KSampler', inputs: { seed: 0, positive: ['6', 0] } },
        },
        slots: { prompt: { node: '6', input: 'text' }, seed: { node: '3', input: 'seed' } },
      }),
    );
    const adapter = new ComfyTextToImage(options(fake.url, { workflows: loadWorkflows(dir) }));
    const err = await adapter
      .run({ ...request, providerModel: 'broken' }, context().ctx)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('rejected');
    expect((err as ProviderError).userMessage).toMatch(
      /refused.*node 6 \(CLIPTextEncode\).*clip links to node 4/,
    );
    expect(fake.prompts).toHaveLength(0);
  });

  it('reports a server gone mid-job as a transient failure', async () => {
    fake = await startFakeComfy({ mode: 'gone', steps: 6 });
    const adapter = new ComfyTextToImage(options(fake.url));
    const { ctx, submitted } = context();
    const err = await adapter.run(request, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('transient');
    expect(submitted).toHaveLength(1);
  });

  it('resumes a submitted prompt after the connection dropped, without submitting it again', async () => {
    // Slow enough steps that the prompt is still running when the second run looks for it.
    fake = await startFakeComfy({ mode: 'drop', steps: 8, stepMs: 150 });
    const adapter = new ComfyTextToImage(options(fake.url));
    const first = context();
    const err = await adapter.run(request, first.ctx).catch((e: unknown) => e);
    expect((err as ProviderError).kind).toBe('transient');
    expect(first.submitted).toHaveLength(1);

    const second = context({ resumeRequestId: first.submitted[0] });
    const result = await adapter.run(request, second.ctx);
    expect(fake.calls.filter((c) => c === 'POST /prompt')).toHaveLength(1);
    expect(second.submitted).toHaveLength(0);
    // It was running when the retry came back: it reports steps, never "queued" again.
    expect(second.updates.some((u) => u.status === 'queued')).toBe(false);
    expect(second.updates.some((u) => u.status === 'running' && (u.percent ?? 0) > 0)).toBe(true);
    expect(result.requestId).toBe(first.submitted[0]);
    expect(result.images).toHaveLength(2);
  });

  it('collects a prompt that finished while nobody listened', async () => {
    fake = await startFakeComfy({ steps: 1 });
    const adapter = new ComfyTextToImage(options(fake.url));
    const first = await adapter.run(request, context().ctx);
    const again = await adapter.run(request, context({ resumeRequestId: first.requestId }).ctx);
    expect(again.requestId).toBe(first.requestId);
    expect(fake.calls.filter((c) => c === 'POST /prompt')).toHaveLength(1);
  });

  it('cancels a pending prompt by deleting it from the queue', async () => {
    fake = await startFakeComfy({ hold: true });
    const adapter = new ComfyTextToImage(options(fake.url));
    const abort = new AbortController();
    const { ctx } = context({
      signal: abort.signal,
      onSubmitted: () => void setTimeout(() => abort.abort(), 20),
    });
    const err = await adapter.run(request, ctx).catch((e: unknown) => e);
    expect((err as ProviderError).kind).toBe('cancelled');
    expect(fake.calls).toContain('POST /queue');
    expect(fake.prompts).toHaveLength(0);
    expect(fake.interrupts).toBe(0);
  });

  it('cancels a running prompt with /interrupt', async () => {
    fake = await startFakeComfy({ steps: 50, stepMs: 20 });
    const adapter = new ComfyTextToImage(options(fake.url));
    const abort = new AbortController();
    const { ctx } = context({
      signal: abort.signal,
      onProgress: (u) => {
        if (u.percent && u.percent > 0) abort.abort();
      },
    });
    const err = await adapter.run(request, ctx).catch((e: unknown) => e);
    expect((err as ProviderError).kind).toBe('cancelled');
    expect(fake.interrupts).toBe(1);
    // The fake stops at its next step, which a loaded machine may take a while to reach.
    await vi.waitFor(() => expect(fake!.prompts[0]!.status).toBe('interrupted'), { timeout: 5000 });
  });

  it('copies a trained LoRA into the loras folder once and names it in the workflow', async () => {
    fake = await startFakeComfy({ steps: 1 });
    const loras = mkdtempSync(join(tmpdir(), 'comfy-loras-'));
    const weights = join(mkdtempSync(join(tmpdir(), 'weights-')), 'lora.safetensors');
    writeFileSync(weights, 'weights');
    const adapter = new ComfyTextToImage(options(fake.url, { lorasDir: loras }));
    const lora = { url: `file://${weights}`, scale: 0.8 };
    await adapter.run({ ...request, providerModel: 'sdxl-lora-txt2img', lora }, context().ctx);
    await adapter.run({ ...request, providerModel: 'sdxl-lora-txt2img', lora }, context().ctx);
    const files = readdirSync(loras);
    expect(files).toHaveLength(1);
    const loader = fake.prompts[1]!.graph['10']!.inputs;
    expect(loader).toMatchObject({ lora_name: files[0], strength_model: 0.8, strength_clip: 0.8 });
  });

  it('downloads a LoRA named by URL (a signed storage URL) into the loras folder, streamed, with nothing half-written', async () => {
    fake = await startFakeComfy({ steps: 1 });
    const weights = Buffer.alloc(3 * 1024 * 1024, 7);
    let broken = true;
    const store = await startFakeServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': weights.length });
      // The first download breaks off half-way; the second is whole.
      if (broken) {
        broken = false;
        res.write(weights.subarray(0, weights.length / 2));
        await new Promise((resolve) => setTimeout(resolve, 100));
        res.destroy();
        return;
      }
      res.end(weights);
    });
    try {
      const loras = mkdtempSync(join(tmpdir(), 'comfy-loras-'));
      const adapter = new ComfyTextToImage(options(fake.url, { lorasDir: loras, fetchFn: fetch }));
      const lora = { url: `${store.url}/lora.safetensors?sig=1`, scale: 1 };
      await expect(
        adapter.run({ ...request, providerModel: 'sdxl-lora-txt2img', lora }, context().ctx),
      ).rejects.toBeDefined();
      expect(readdirSync(loras)).toEqual([]);
      await adapter.run({ ...request, providerModel: 'sdxl-lora-txt2img', lora }, context().ctx);
      const files = readdirSync(loras);
      expect(files).toHaveLength(1);
      expect(readFileSync(join(loras, files[0]!)).equals(weights)).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('ComfyUI image tools', () => {
  const image = async () => ({
    bytes: await fakePng(64, 48, 3),
    contentType: 'image/png',
    width: 64,
    height: 48,
  });

  it('edits: uploads the input image and fills prompt, strength and the uploaded name', async () => {
    fake = await startFakeComfy({ steps: 2 });
    const tools = new ComfyImageTools(options(fake.url));
    const input = await image();
    const result = await tools.run(
      {
        tool: 'edit',
        providerModel: 'sdxl-img2img',
        seed: 7,
        image: input,
        prompt: 'make it night',
        strength: 0.45,
      },
      context().ctx,
    );
    expect(result.kind).toBe('images');
    const [name, bytes] = [...fake.uploads.entries()][0]!;
    expect(bytes.equals(input.bytes)).toBe(true);
    const graph = fake.prompts[0]!.graph;
    expect(graph['10']!.inputs.image).toBe(name);
    expect(graph['3']!.inputs).toMatchObject({ denoise: 0.45, seed: 7 });
    expect(graph['6']!.inputs.text).toBe('make it night');
  });

  it('upscales: the factor goes through the slot’s multiplier', async () => {
    fake = await startFakeComfy({ steps: 1 });
    const tools = new ComfyImageTools(options(fake.url));
    await tools.run(
      { tool: 'upscale', providerModel: 'esrgan-upscale', seed: 1, image: await image(), factor: 2 },
      context().ctx,
    );
    expect(fake.prompts[0]!.graph['4']!.inputs.scale_by).toBe(0.5);
  });
});

describe('ComfyUI workflows', () => {
  it('ships valid built-in workflows that the built-in catalogue entries name', () => {
    expect([...loadWorkflows().keys()].sort()).toEqual(
      ['esrgan-upscale', 'sdxl-img2img', 'sdxl-lora-txt2img', 'sdxl-txt2img'].sort(),
    );
    expect(
      comfyCatalogueProblem([
        { id: 'a', provider: 'comfyui', providerModel: 'sdxl-txt2img', capability: 'text-to-image' },
      ]),
    ).toBeUndefined();
  });

  it('names the problem: an unknown workflow, a missing slot, a slot on a missing node, a UI export', () => {
    expect(
      comfyCatalogueProblem([
        { id: 'x', provider: 'comfyui', providerModel: 'nope', capability: 'text-to-image' },
      ]),
    ).toMatch(/"x" names the ComfyUI workflow "nope", but there is no nope.json/);
    expect(
      comfyCatalogueProblem([
        { id: 'y', provider: 'comfyui', providerModel: 'esrgan-upscale', capability: 'edit' },
      ]),
    ).toMatch(/needs the slot\(s\) prompt for edit/);
    const dir = mkdtempSync(join(tmpdir(), 'comfy-bad-'));
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({
        graph: { '1': { class_type: 'X', inputs: {} } },
        slots: { prompt: { node: '2', input: 'text' } },
      }),
    );
    expect(() => readWorkflow(join(dir, 'bad.json'))).toThrow(/slot "prompt" names node "2"/);
    writeFileSync(join(dir, 'ui.json'), JSON.stringify({ nodes: [], links: [] }));
    expect(() => readWorkflow(join(dir, 'ui.json'))).toThrow(WorkflowError);
    expect(() => readWorkflow(join(dir, 'ui.json'))).toThrow(/Save \(API\)/);
  });

  it('stops start-up naming the setting and the problem; a good operator workflow adds a model', () => {
    const missing = () =>
      loadConfig({
        COMFYUI_URL: 'http://127.0.0.1:8188',
        MODELS_JSON: JSON.stringify([{ id: 'comfyui-sdxl', providerModel: 'flux-dev-graph' }]),
      });
    expect(missing).toThrow(ConfigError);
    expect(missing).toThrow(/MODELS_JSON: .*"comfyui-sdxl" names the ComfyUI workflow "flux-dev-graph"/);
    // The same for a ComfyUI alternate of another vendor's model: found at start-up, not at failover.
    const alternate = () =>
      loadConfig({
        MODELS_JSON: JSON.stringify([
          { id: 'flux-dev', alternates: [{ provider: 'comfyui', providerModel: 'flux-dev-graph' }] },
        ]),
      });
    expect(alternate).toThrow(/MODELS_JSON: .*"flux-dev" names the ComfyUI workflow "flux-dev-graph"/);

    const dir = mkdtempSync(join(tmpdir(), 'comfy-dir-'));
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    expect(() => loadConfig({ COMFYUI_WORKFLOWS_DIR: dir })).toThrow(
      /COMFYUI_WORKFLOWS_DIR: ComfyUI workflow .*broken\.json: cannot read it as JSON/,
    );

    const good = mkdtempSync(join(tmpdir(), 'comfy-dir-'));
    const sdxl = readWorkflow(join(loadWorkflows().get('sdxl-txt2img')!.file));
    writeFileSync(
      join(good, 'flux-dev-graph.json'),
      JSON.stringify({ graph: sdxl.graph, slots: sdxl.slots }),
    );
    const config = loadConfig({
      COMFYUI_URL: 'http://127.0.0.1:8188',
      COMFYUI_WORKFLOWS_DIR: good,
      MODELS_JSON: JSON.stringify([{ id: 'comfyui-sdxl', providerModel: 'flux-dev-graph' }]),
    });
    expect(config.models.find((m) => m.id === 'comfyui-sdxl')?.providerModel).toBe('flux-dev-graph');
    expect(config.providers.comfyui).toMatchObject({ url: 'http://127.0.0.1:8188', workflowsDir: good });
  });
});
