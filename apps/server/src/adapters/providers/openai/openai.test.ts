import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { startOpenAIFake } from '../../../../test/fakes/openai-server.ts';
import { fakePng } from '../../../../test/fakes/png.ts';
import { runContext, runError, useFakeVendor } from '../../../../test/support/vendor-adapters.ts';
import type { TextToImageRequest } from '../text-to-image.ts';
import { OpenAIImageTools, OpenAITextToImage, openaiSize } from './openai.text-to-image.ts';

const fake = useFakeVendor(() => startOpenAIFake());

const options = (log?: { warn(o: object, m: string): void; error(o: object, m: string): void }) => ({
  apiKey: fake.key,
  baseUrl: `${fake.url}/v1`,
  fetch: fake.fetch,
  log,
});

const request = (overrides: Partial<TextToImageRequest> = {}): TextToImageRequest => ({
  providerModel: 'gpt-image-1',
  prompt: 'a red bicycle leaning on a wall',
  seed: 11,
  width: 1248,
  height: 832,
  numImages: 1,
  ...overrides,
});

const editRequest = async () => ({
  tool: 'edit' as const,
  providerModel: 'gpt-image-1',
  seed: 3,
  prompt: 'paint the wall blue',
  strength: 0.6,
  image: { bytes: await fakePng(60, 90, 5), contentType: 'image/png', width: 60, height: 90 },
});

describe('OpenAI Images adapter through the openai SDK against a fake API', () => {
  it('generate: JSON request with the size nearest the ratio, b64_json decoded, request id kept', async () => {
    const { ctx, submitted } = runContext();
    const result = await new OpenAITextToImage(options()).run(request({ numImages: 2 }), ctx);
    const [sent] = fake.requests;
    expect(sent).toMatchObject({
      endpoint: 'generations',
      fields: {
        model: 'gpt-image-1',
        prompt: 'a red bicycle leaning on a wall',
        n: 2,
        size: '1536x1024',
        output_format: 'png',
      },
    });
    expect(result.requestId).toBe(sent!.requestId);
    expect(result.seed).toBe(11);
    expect(result.images).toHaveLength(2);
    expect(result.images[0]).toMatchObject({ contentType: 'image/png', width: 1536, height: 1024 });
    expect(result.images[1]!.bytes.equals(sent!.images[1]!)).toBe(true);
    // Synchronous: nothing to resume, so nothing is recorded before the answer.
    expect(submitted).toEqual([]);
  });

  it('maps every ratio onto the three sizes gpt-image makes', () => {
    expect(openaiSize(1024, 1024)).toBe('1024x1024');
    expect(openaiSize(832, 1248)).toBe('1024x1536');
    expect(openaiSize(1920, 1080)).toBe('1536x1024');
  });

  it('edit: multipart with the image as a file under `image`, decoded output', async () => {
    const edit = await editRequest();
    const result = await new OpenAIImageTools(options()).run(edit, runContext().ctx);
    const [sent] = fake.requests;
    expect(sent!.endpoint).toBe('edits');
    expect(sent!.fields).toMatchObject({
      model: 'gpt-image-1',
      prompt: 'paint the wall blue',
      size: '1024x1536',
    });
    expect(sent!.files).toHaveLength(1);
    expect(sent!.files[0]).toMatchObject({ field: 'image', type: 'image/png' });
    expect(sent!.files[0]!.bytes.equals(edit.image.bytes)).toBe(true);
    if (result.kind !== 'images') throw new Error('expected images');
    expect(result.images[0]).toMatchObject({ width: 1024, height: 1536 });
    expect(result.requestId).toBe(sent!.requestId);
  });

  it('the fake takes several images as image[] the way the SDK sends an array', async () => {
    const client = new OpenAI({
      apiKey: fake.key,
      baseURL: `${fake.url}/v1`,
      maxRetries: 0,
      fetch: fake.fetch,
    });
    const png = await fakePng(32, 32, 1);
    const files = await Promise.all([
      toFile(png, 'a.png', { type: 'image/png' }),
      toFile(png, 'b.png', { type: 'image/png' }),
    ]);
    const answer = await client.images.edit({ model: 'gpt-image-1', image: files, prompt: 'merge them' });
    expect(answer.data?.[0]?.b64_json).toBeTruthy();
    expect(fake.requests[0]!.files.map((f) => f.field)).toEqual(['image[]', 'image[]']);
  });

  it('400 moderation_blocked is rejected with a message a person understands', async () => {
    fake.next('moderation');
    const error = await runError(new OpenAITextToImage(options()).run(request(), runContext().ctx));
    expect(error.kind).toBe('rejected');
    expect(error.userMessage).toBe(
      'OpenAI’s safety system refused this request. Try describing it differently.',
    );
    expect(fake.requests).toHaveLength(1); // maxRetries 0: our queue decides about retries
  });

  it('an edit refused by moderation is rejected too', async () => {
    fake.next('moderation');
    const error = await runError(new OpenAIImageTools(options()).run(await editRequest(), runContext().ctx));
    expect(error.kind).toBe('rejected');
  });

  it('429 and 500 are transient, each tried once', async () => {
    fake.next('rate-limit');
    expect((await runError(new OpenAITextToImage(options()).run(request(), runContext().ctx))).kind).toBe(
      'transient',
    );
    fake.next('error');
    expect((await runError(new OpenAITextToImage(options()).run(request(), runContext().ctx))).kind).toBe(
      'transient',
    );
    expect(fake.requests).toHaveLength(2);
  });

  it('401 is transient for the job and logged for the operator, without the key', async () => {
    const errors: string[] = [];
    const adapter = new OpenAITextToImage({
      ...options({ warn: () => undefined, error: (o, m) => errors.push(`${JSON.stringify(o)} ${m}`) }),
      apiKey: 'sk-wrong-key',
    });
    const error = await runError(adapter.run(request(), runContext().ctx));
    expect(error.kind).toBe('transient');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/OPENAI_API_KEY/);
    expect(errors[0]).not.toContain('sk-wrong-key');
    expect(error.message).not.toContain('sk-wrong');
  });

  it('a cancelled job aborts the call: cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    const error = await runError(
      new OpenAITextToImage(options()).run(request(), runContext({ signal: abort.signal }).ctx),
    );
    expect(error.kind).toBe('cancelled');
  });

  it('an unreachable API is transient', async () => {
    const gone = await startOpenAIFake();
    await gone.close();
    const adapter = new OpenAITextToImage({ apiKey: gone.key, baseUrl: `${gone.url}/v1`, fetch: gone.fetch });
    expect((await runError(adapter.run(request(), runContext().ctx))).kind).toBe('transient');
  });
});
