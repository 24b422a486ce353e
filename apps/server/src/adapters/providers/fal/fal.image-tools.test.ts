import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { runContext, runError, useFakeVendor, waitFor } from '../../../../test/support/vendor-adapters.ts';
import { useToolInputs } from '../../../../test/support/images.ts';
import { startFalFake } from '../../../../test/fakes/fal-server.ts';
import { loadConfig } from '../../../config.ts';
import { isMp4 } from '../hosted.ts';
import type { InputImage, ToolRequest } from '../image-tools.ts';
import { BUILT_IN_MODELS } from '../catalogue.ts';
import { FalImageTools, createFalImageTools } from './fal.image-tools.ts';

/** The catalogue's fal model for each tool: the tests run exactly what production would. */
const falModel = (tool: ToolRequest['tool']) =>
  BUILT_IN_MODELS.find((m) => m.capability === tool && m.provider === 'fal')!.providerModel;

const fake = useFakeVendor(() => startFalFake());
const inputs = useToolInputs();

function adapter(options: { timeoutMs?: number; key?: string } = {}) {
  return new FalImageTools({
    key: options.key ?? fake.key,
    baseUrl: fake.url,
    pollIntervalMs: 5,
    fetch: fake.fetch,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
}

const submits = () =>
  fake.received.filter((r) => r.method === 'POST' && r.path.startsWith('/fal-ai/')).length;

function editRequest(overrides: Partial<ToolRequest> = {}): ToolRequest {
  return {
    tool: 'edit',
    providerModel: falModel('edit'),
    seed: 7,
    image: inputs.photo,
    prompt: 'make it autumn',
    negativePrompt: 'people',
    strength: 0.6,
    ...overrides,
  } as ToolRequest;
}

function animateRequest(durationSeconds = 10): ToolRequest {
  return {
    tool: 'animate',
    providerModel: falModel('animate'),
    seed: 11,
    image: inputs.photo,
    prompt: 'leaves drifting',
    durationSeconds,
  };
}

interface Case {
  request: () => ToolRequest;
  /** The images the client must upload to fal storage, in order. */
  uploads: () => InputImage[] | 'composite';
  /** The model input expected, given the uploaded files' URLs. */
  input: (urls: string[]) => Record<string, unknown>;
  output: { kind: 'images'; width: number; height: number } | { kind: 'video' };
}

const cases: Record<ToolRequest['tool'], Case> = {
  edit: {
    request: () => editRequest(),
    uploads: () => [inputs.photo],
    // The negative prompt is dropped: FLUX [dev] image-to-image has none.
    input: ([url]) => ({
      image_url: url,
      prompt: 'make it autumn',
      strength: 0.6,
      seed: 7,
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
    }),
    output: { kind: 'images', width: 40, height: 30 },
  },
  copy_style: {
    request: () => ({
      tool: 'copy_style',
      providerModel: falModel('copy_style'),
      seed: 8,
      style: inputs.photo,
      description: 'a harbour at night',
    }),
    uploads: () => [inputs.photo],
    // Redux takes no prompt; the output keeps the reference's 4:3 shape at about one megapixel.
    input: ([url]) => ({
      image_url: url,
      image_size: { width: 1184, height: 880 },
      seed: 8,
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
    }),
    output: { kind: 'images', width: 1184, height: 880 },
  },
  product_holding: {
    request: () => ({
      tool: 'product_holding',
      providerModel: falModel('product_holding'),
      seed: 9,
      person: inputs.person,
      product: inputs.product,
      aspectRatio: '3:4',
      width: 48,
      height: 64,
      prompt: 'on a beach',
    }),
    uploads: () => 'composite',
    input: ([url]) => ({
      image_url: url,
      prompt: expect.stringMatching(/person on the left holding the product .* Also: on a beach$/),
      resolution_mode: '3:4',
      seed: 9,
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
    }),
    output: { kind: 'images', width: 48, height: 64 },
  },
  upscale: {
    request: () => ({
      tool: 'upscale',
      providerModel: falModel('upscale'),
      seed: 10,
      image: inputs.photo,
      factor: 4,
    }),
    uploads: () => [inputs.photo],
    input: ([url]) => ({ image_url: url, scale: 4, output_format: 'png' }),
    output: { kind: 'images', width: 160, height: 120 },
  },
  animate: {
    request: () => animateRequest(10),
    uploads: () => [inputs.photo],
    input: ([url]) => ({ image_url: url, prompt: 'leaves drifting', duration: '10' }),
    output: { kind: 'video' },
  },
};

describe('fal image tools through @fal-ai/client against the fake queue and storage', () => {
  it.each(Object.keys(cases) as ToolRequest['tool'][])(
    '%s: uploads the input to fal storage, sends the model its URL, and downloads the output',
    async (tool) => {
      const spec = cases[tool];
      const request = spec.request();
      const uploadsBefore = fake.uploads.length;
      const { ctx, submitted } = runContext();
      const result = await adapter().run(request, ctx);

      expect(submitted).toEqual([result.requestId]);
      const job = fake.requests.get(result.requestId)!;
      expect(job.endpoint).toBe(request.providerModel);

      // Every input image went to fal storage first, and the model got the stored files' URLs.
      const uploads = fake.uploads.slice(uploadsBefore);
      const expected = spec.uploads();
      if (expected === 'composite') {
        // Kontext [dev] takes one image: the person and the product side by side at the ratio asked.
        expect(uploads).toHaveLength(1);
        const { data, info } = await sharp(uploads[0]!.bytes).raw().toBuffer({ resolveWithObject: true });
        expect(info).toMatchObject({ width: 48, height: 64, channels: 3 });
        const pixel = (x: number, y: number) => [...data.subarray((y * 48 + x) * 3, (y * 48 + x) * 3 + 3)];
        expect(pixel(14, 32)).toEqual([30, 30, 200]); // the person, left
        expect(pixel(38, 32)).toEqual([30, 200, 30]); // the product, right
      } else {
        expect(uploads.map((u) => u.bytes)).toEqual(expected.map((image) => image.bytes));
      }
      for (const upload of uploads) {
        expect(upload).toMatchObject({ contentType: 'image/png', putContentType: 'image/png' });
        expect(upload.fileName).toMatch(/\.png$/);
      }
      expect(job.input).toEqual(spec.input(uploads.map((u) => u.url)));

      if (spec.output.kind === 'video') {
        expect(result.kind).toBe('video');
        if (result.kind !== 'video') return;
        expect(result.video.contentType).toBe('video/mp4');
        expect(result.video.bytes.equals(fake.videoBytes())).toBe(true);
        expect(isMp4(result.video.bytes)).toBe(true);
        expect(result.seed).toBe(request.seed);
      } else {
        expect(result.kind).toBe('images');
        if (result.kind !== 'images') return;
        expect(result.images).toHaveLength(1);
        expect(result.images[0]!.bytes.equals(await fake.imageBytes(result.requestId))).toBe(true);
        expect(result.images[0]).toMatchObject({
          contentType: 'image/png',
          width: spec.output.width,
          height: spec.output.height,
        });
        expect(result.seed).toBe(request.seed);
      }
    },
  );

  it('animate without a prompt asks for gentle motion (Kling requires one)', async () => {
    const request = { ...animateRequest(5), prompt: undefined } as ToolRequest;
    const result = await adapter().run(request, runContext().ctx);
    expect(fake.requests.get(result.requestId)!.input).toMatchObject({
      duration: '5',
      prompt: expect.stringContaining('natural, gentle motion'),
    });
  });

  it('refuses a duration Kling cannot make, before uploading or submitting anything', async () => {
    const before = { uploads: fake.uploads.length, submits: submits() };
    const { ctx, submitted } = runContext();
    const error = await runError(adapter().run(animateRequest(7), ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe(
      'This model makes videos of 5 or 10 seconds. Choose one of those durations.',
    );
    expect(submitted).toEqual([]);
    expect({ uploads: fake.uploads.length, submits: submits() }).toEqual(before);
  });

  it('classifies vendor failures: model error transient, content policy and safety checker rejected', async () => {
    fake.scenario({ outcome: 'model-error' }, { outcome: 'content-policy' }, { outcome: 'nsfw' });
    const crashed = await runError(adapter().run(editRequest(), runContext().ctx));
    expect(crashed.kind).toBe('transient');
    expect(crashed.userMessage).toMatch(/temporary problem/);

    const refused = await runError(adapter().run(editRequest(), runContext().ctx));
    expect(refused.kind).toBe('rejected');
    expect(refused.userMessage).toBe(
      'The provider refused this prompt: The prompt was flagged by the content checker.',
    );

    const flagged = await runError(adapter().run(cases.copy_style.request(), runContext().ctx));
    expect(flagged.kind).toBe('rejected');
    expect(flagged.userMessage).toMatch(/safety checker blocked/);
  });

  it('a storage upload refused for our key is rejected, and nothing is submitted', async () => {
    const before = submits();
    const { ctx, submitted } = runContext();
    const error = await runError(adapter({ key: 'wrong:key' }).run(editRequest(), ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe('The image provider is not set up correctly. Please try another model.');
    expect(fake.received.at(-1)!.path).toBe('/storage/upload/initiate');
    expect(submitted).toEqual([]);
    expect(submits()).toBe(before);
  });

  it('cancel() removes a queued animate request and the run stops as cancelled', async () => {
    fake.scenario({ queuedPolls: 1000 });
    const controller = new AbortController();
    const { ctx, submitted } = runContext({ signal: controller.signal });
    const running = adapter().run(animateRequest(), ctx);
    await waitFor(() => submitted.length === 1 && fake.requests.get(submitted[0]!)!.statusPolls > 1);
    expect(await adapter().cancel(submitted[0]!, falModel('animate'))).toBe(true);
    controller.abort();
    expect((await runError(running)).kind).toBe('cancelled');
    expect(fake.requests.get(submitted[0]!)!.cancelled).toBe(true);
  });

  it('resumes a submitted request without submitting or uploading again', async () => {
    fake.scenario({ outcome: 'never' });
    const first = new AbortController();
    const started = runContext({ signal: first.signal });
    const running = adapter().run(animateRequest(), started.ctx);
    await waitFor(() => started.submitted.length === 1);
    first.abort();
    expect((await runError(running)).kind).toBe('cancelled');

    const id = started.submitted[0]!;
    fake.requests.get(id)!.scenario.outcome = 'success';
    const before = { uploads: fake.uploads.length, submits: submits() };
    const resumed = runContext({ resumeRequestId: id });
    const result = await adapter().run(animateRequest(), resumed.ctx);
    expect(result).toMatchObject({ kind: 'video', requestId: id });
    expect(resumed.submitted).toEqual([]);
    expect({ uploads: fake.uploads.length, submits: submits() }).toEqual(before);
  });

  it('is built from config only when FAL_KEY is set', () => {
    expect(createFalImageTools(loadConfig({}))).toBeUndefined();
    expect(createFalImageTools(loadConfig({ FAL_KEY: 'a:b', FAL_BASE_URL: fake.url }))).toBeInstanceOf(
      FalImageTools,
    );
  });
});
