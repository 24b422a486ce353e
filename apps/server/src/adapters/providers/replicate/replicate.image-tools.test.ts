import { describe, expect, it } from 'vitest';
import { runContext, runError, useFakeVendor, waitFor } from '../../../../test/support/vendor-adapters.ts';
import { useToolInputs } from '../../../../test/support/images.ts';
import { startReplicateFake, type ReplicateScenario } from '../../../../test/fakes/replicate-server.ts';
import { loadConfig } from '../../../config.ts';
import { isMp4 } from '../hosted.ts';
import type { InputImage, ToolRequest } from '../image-tools.ts';
import { BUILT_IN_MODELS } from '../catalogue.ts';
import { ReplicateImageTools, createReplicateImageTools } from './replicate.image-tools.ts';

/** The catalogue's Replicate model for each tool: the tests run exactly what production would. */
const replicateModel = (tool: ToolRequest['tool']) =>
  BUILT_IN_MODELS.find((m) => m.capability === tool && m.provider === 'replicate')!.providerModel;

const fake = useFakeVendor(() => startReplicateFake());
const inputs = useToolInputs();

function adapter(options: { apiToken?: string } = {}) {
  return new ReplicateImageTools({
    apiToken: options.apiToken ?? fake.token,
    baseUrl: `${fake.url}/v1`,
    pollIntervalMs: 5,
    fetch: fake.fetch,
  });
}

const creates = () => fake.received.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions'));
const fileUploads = () => fake.received.filter((r) => r.method === 'POST' && r.path === '/v1/files');

function editRequest(): ToolRequest {
  return {
    tool: 'edit',
    providerModel: replicateModel('edit'),
    seed: 7,
    image: inputs.photo,
    prompt: 'make it autumn',
    negativePrompt: 'people',
    strength: 0.6,
  };
}

function animateRequest(durationSeconds = 5): ToolRequest {
  return {
    tool: 'animate',
    providerModel: replicateModel('animate'),
    seed: 11,
    image: inputs.photo,
    prompt: 'leaves drifting',
    durationSeconds,
  };
}

interface Case {
  request: () => ToolRequest;
  /** The input images the client must upload through POST /v1/files, by the input field carrying each. */
  uploads: () => Record<string, InputImage>;
  /** The model input expected, with the uploaded files' URLs where the images were. */
  input: (url: Record<string, string>) => Record<string, unknown>;
  /** How the fake answers (the model's own shape unless a scenario overrides it). */
  scenario?: ReplicateScenario;
  output: { kind: 'images'; width: number; height: number } | { kind: 'video' };
}

const cases: Record<string, Case> = {
  edit: {
    request: editRequest,
    uploads: () => ({ image: inputs.photo }),
    // Image-to-image: no aspect_ratio (the output takes the input's), no negative prompt (flux-dev has none).
    input: (url) => ({
      prompt: 'make it autumn',
      image: url.image,
      prompt_strength: 0.6,
      seed: 7,
      num_outputs: 1,
      output_format: 'png',
    }),
    output: { kind: 'images', width: 40, height: 30 },
  },
  copy_style: {
    request: () => ({
      tool: 'copy_style',
      providerModel: replicateModel('copy_style'),
      seed: 8,
      style: inputs.photo,
      description: 'a harbour at night',
    }),
    uploads: () => ({ redux_image: inputs.photo }),
    input: (url) => ({
      redux_image: url.redux_image,
      aspect_ratio: '4:3',
      seed: 8,
      num_outputs: 1,
      output_format: 'png',
    }),
    output: { kind: 'images', width: 64, height: 48 },
  },
  product_holding: {
    request: () => ({
      tool: 'product_holding',
      providerModel: replicateModel('product_holding'),
      seed: 9,
      person: inputs.person,
      product: inputs.product,
      aspectRatio: '3:4',
      width: 48,
      height: 64,
      prompt: 'on a beach',
    }),
    uploads: () => ({ input_image_1: inputs.person, input_image_2: inputs.product }),
    input: (url) => ({
      prompt: expect.stringMatching(
        /^The person from the first image holds the product from the second .* Also: on a beach$/,
      ),
      input_image_1: url.input_image_1,
      input_image_2: url.input_image_2,
      aspect_ratio: '3:4',
      seed: 9,
      output_format: 'png',
      safety_tolerance: 2,
    }),
    output: { kind: 'images', width: 48, height: 64 },
  },
  upscale: {
    request: () => ({
      tool: 'upscale',
      providerModel: replicateModel('upscale'),
      seed: 10,
      image: inputs.photo,
      factor: 2,
    }),
    uploads: () => ({ image: inputs.photo }),
    input: (url) => ({ image: url.image, scale: 2, face_enhance: false }),
    output: { kind: 'images', width: 80, height: 60 },
  },
  'upscale (an object output)': {
    request: () => ({
      tool: 'upscale',
      providerModel: replicateModel('upscale'),
      seed: 10,
      image: inputs.photo,
      factor: 4,
    }),
    uploads: () => ({ image: inputs.photo }),
    input: (url) => ({ image: url.image, scale: 4, face_enhance: false }),
    scenario: { output: 'object' },
    output: { kind: 'images', width: 160, height: 120 },
  },
  animate: {
    request: () => animateRequest(10),
    uploads: () => ({ start_image: inputs.photo }),
    input: (url) => ({
      prompt: 'leaves drifting',
      start_image: url.start_image,
      duration: 10,
      mode: 'standard',
    }),
    output: { kind: 'video' },
  },
};

describe('Replicate image tools through the replicate client against the fake API and Files API', () => {
  it.each(Object.keys(cases))(
    '%s: uploads the input through /v1/files, sends the model its URL, and downloads the output',
    async (name) => {
      const spec = cases[name]!;
      if (spec.scenario) fake.scenario(spec.scenario);
      const request = spec.request();
      // A community model runs at a pinned version (`owner/name:version`) through POST /v1/predictions.
      const [modelName, version] = request.providerModel.split(':') as [string, string | undefined];
      if (version) fake.versions.set(version, modelName);
      const uploadsBefore = fake.uploads.length;
      const { ctx, submitted } = runContext();
      const result = await adapter().run(request, ctx);

      expect(submitted).toEqual([result.requestId]);
      const prediction = fake.predictions.get(result.requestId)!;
      expect(prediction.model).toBe(modelName);
      expect(creates().at(-1)!.path).toBe(
        version ? '/v1/predictions' : `/v1/models/${modelName}/predictions`,
      );

      // Each input image was uploaded (as a named PNG) and the model input carries that file's URL.
      const expected = spec.uploads();
      const uploads = fake.uploads.slice(uploadsBefore);
      expect(uploads).toHaveLength(Object.keys(expected).length);
      const urls: Record<string, string> = {};
      for (const [field, image] of Object.entries(expected)) {
        const upload = fake.upload(prediction.input[field]);
        expect(upload, `the upload behind input.${field}`).toBeDefined();
        expect(upload!.bytes.equals(image.bytes)).toBe(true);
        expect(upload!.contentType).toBe('image/png');
        expect(upload!.filename).toMatch(/\.png$/);
        urls[field] = upload!.url;
      }
      expect(prediction.input).toEqual(spec.input(urls));

      if (spec.output.kind === 'video') {
        expect(result.kind).toBe('video');
        if (result.kind !== 'video') return;
        expect(result.video.contentType).toBe('video/mp4');
        expect(result.video.bytes.equals(fake.videoBytes())).toBe(true);
        expect(isMp4(result.video.bytes)).toBe(true);
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
      }
      expect(result.seed).toBe(request.seed);
    },
  );

  it('runs a community model pinned as owner/name:version through POST /v1/predictions', async () => {
    // Replicate's /v1/models/{owner}/{name}/predictions runs official models only; community models
    // such as nightmareai/real-esrgan are run by version.
    const version = 'f'.repeat(64);
    fake.versions.set(version, 'nightmareai/real-esrgan');
    const request: ToolRequest = {
      tool: 'upscale',
      providerModel: `nightmareai/real-esrgan:${version}`,
      seed: 10,
      image: inputs.photo,
      factor: 2,
    };
    const result = await adapter().run(request, runContext().ctx);
    const create = creates().at(-1)!;
    expect(create.path).toBe('/v1/predictions');
    expect(JSON.parse(create.body)).toMatchObject({ version, input: { scale: 2 } });
    expect(result.kind === 'images' && result.images[0]).toMatchObject({ width: 80, height: 60 });
  });

  it('animate without a prompt asks for gentle motion (Kling requires one)', async () => {
    const request = { ...animateRequest(5), prompt: undefined } as ToolRequest;
    const result = await adapter().run(request, runContext().ctx);
    expect(fake.predictions.get(result.requestId)!.input).toMatchObject({
      duration: 5,
      prompt: expect.stringContaining('natural, gentle motion'),
    });
  });

  it('refuses a duration Kling cannot make, before uploading or creating anything', async () => {
    const before = { uploads: fileUploads().length, creates: creates().length };
    const { ctx, submitted } = runContext();
    const error = await runError(adapter().run(animateRequest(7), ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe(
      'This model makes videos of 5 or 10 seconds. Choose one of those durations.',
    );
    expect(submitted).toEqual([]);
    expect({ uploads: fileUploads().length, creates: creates().length }).toEqual(before);
  });

  it('classifies vendor failures: a failed prediction transient, an NSFW refusal rejected', async () => {
    fake.scenario({ outcome: 'failed' }, { outcome: 'nsfw' });
    const crashed = await runError(adapter().run(editRequest(), runContext().ctx));
    expect(crashed.kind).toBe('transient');
    expect(crashed.message).toContain('CUDA out of memory');
    expect(crashed.userMessage).toMatch(/temporary problem/);

    const refused = await runError(adapter().run(editRequest(), runContext().ctx));
    expect(refused.kind).toBe('rejected');
    expect(refused.userMessage).toMatch(/^The provider refused this prompt: NSFW content detected/);
  });

  it('an upload refused for our token is rejected, and no prediction is created', async () => {
    const before = creates().length;
    const { ctx, submitted } = runContext();
    const error = await runError(adapter({ apiToken: 'r8_wrong' }).run(editRequest(), ctx));
    expect(error.kind).toBe('rejected');
    expect(error.message).not.toContain('r8_wrong');
    expect(fake.received.at(-1)!.path).toBe('/v1/files');
    expect(submitted).toEqual([]);
    expect(creates().length).toBe(before);
  });

  it('cancel() of a starting animate prediction is true and the run stops as cancelled', async () => {
    fake.scenario({ startingPolls: 1000 });
    const controller = new AbortController();
    const { ctx, submitted } = runContext({ signal: controller.signal });
    const running = adapter().run(animateRequest(), ctx);
    await waitFor(() => submitted.length === 1 && fake.predictions.get(submitted[0]!)!.polls > 1);
    expect(await adapter().cancel(submitted[0]!)).toBe(true);
    controller.abort();
    expect((await runError(running)).kind).toBe('cancelled');
    expect(fake.snapshot(submitted[0]!).status).toBe('canceled');
  });

  it('resumes a prediction without creating or uploading again', async () => {
    fake.scenario({ outcome: 'never' });
    const first = new AbortController();
    const started = runContext({ signal: first.signal });
    const running = adapter().run(animateRequest(), started.ctx);
    await waitFor(() => started.submitted.length === 1);
    first.abort();
    expect((await runError(running)).kind).toBe('cancelled');

    const id = started.submitted[0]!;
    fake.predictions.get(id)!.scenario.outcome = 'success';
    const before = { uploads: fileUploads().length, creates: creates().length };
    const resumed = runContext({ resumeRequestId: id });
    const result = await adapter().run(animateRequest(), resumed.ctx);
    expect(result).toMatchObject({ kind: 'video', requestId: id });
    expect(resumed.submitted).toEqual([]);
    expect({ uploads: fileUploads().length, creates: creates().length }).toEqual(before);
  });

  it('is built from config only when REPLICATE_API_TOKEN is set', () => {
    expect(createReplicateImageTools(loadConfig({}))).toBeUndefined();
    expect(
      createReplicateImageTools(
        loadConfig({ REPLICATE_API_TOKEN: 'r8_x', REPLICATE_BASE_URL: `${fake.url}/v1` }),
      ),
    ).toBeInstanceOf(ReplicateImageTools);
  });
});
