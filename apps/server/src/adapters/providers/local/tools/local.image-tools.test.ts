import { describe, expect, it } from 'vitest';
import type { EditRequest } from '../../image-tools.ts';
import { ProviderError } from '../../text-to-image.ts';
import { LocalTextToImage } from '../local.text-to-image.ts';
import { BUILT_IN_MODELS } from '../../catalogue.ts';
import { LOCAL_TOOL_MODELS } from './local-tool-models.ts';
import { LocalImageTools, localToolRequestId } from './local.image-tools.ts';
import { colourful, recordingContext } from './test-helpers.ts';

const tools = new LocalImageTools({ ffmpegPath: 'unused', textToImage: new LocalTextToImage() });

const editRequest = async (over: Partial<EditRequest> = {}): Promise<EditRequest> => ({
  tool: 'edit',
  providerModel: 'local/edit',
  seed: 1,
  image: await colourful(16, 16),
  prompt: 'warm',
  strength: 0.5,
  ...over,
});

describe('LocalImageTools', () => {
  it('is the always-available local provider and serves every local model of the catalogue', () => {
    expect([tools.name, tools.available]).toEqual(['local', true]);
    const catalogue = BUILT_IN_MODELS.filter(
      (m) => m.provider === 'local' && m.capability !== 'text-to-image' && m.capability !== 'train',
    ).map((m) => [m.capability, m.providerModel]);
    expect(Object.entries(LOCAL_TOOL_MODELS).sort()).toEqual(catalogue.sort());
  });

  it('reports a UUID-shaped request id before any progress; the same request gives the same id', async () => {
    const events: string[] = [];
    const ctx = recordingContext({
      onSubmitted: (id) => void events.push(`submitted ${id}`),
      onProgress: (u) => void events.push(`progress ${u.percent}`),
    });
    const request = await editRequest();
    const result = await tools.run(request, ctx);
    const id = localToolRequestId(request);
    expect(id).toMatch(/^local-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(events[0]).toBe(`submitted ${id}`);
    expect(events.slice(1).every((e) => e.startsWith('progress'))).toBe(true);
    expect(result).toMatchObject({ kind: 'images', seed: 1, requestId: id });
    // Any input that changes the output changes the id; key order does not.
    expect(localToolRequestId(await editRequest())).toBe(id);
    expect(localToolRequestId(await editRequest({ seed: 2 }))).not.toBe(id);
    expect(localToolRequestId(await editRequest({ image: await colourful(16, 17) }))).not.toBe(id);
    const { prompt, ...rest } = request;
    expect(localToolRequestId({ prompt, ...rest })).toBe(id);
  });

  it('refuses a model that is not the local one for the tool', async () => {
    await expect(
      tools.run(await editRequest({ providerModel: 'local/upscale' }), recordingContext()),
    ).rejects.toMatchObject({
      kind: 'rejected',
      userMessage: 'The local engine has no model "local/upscale" for this tool. Use local/edit.',
    });
  });

  it('does nothing for a job cancelled before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    const ctx = recordingContext({ signal: controller.signal });
    const error = await tools.run(await editRequest(), ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'cancelled' });
    expect(ctx.submitted).toEqual([]);
  });

  it('stops between steps when cancelled mid-run', async () => {
    const controller = new AbortController();
    const ctx = recordingContext({
      signal: controller.signal,
      onProgress: (u) => {
        ctx.progress.push(u);
        if (u.percent === 20) controller.abort();
      },
    });
    await expect(tools.run(await editRequest(), ctx)).rejects.toMatchObject({ kind: 'cancelled' });
    expect(ctx.progress.at(-1)?.percent).toBe(20);
  });

  it('says clearly when an input is not a readable image', async () => {
    const image = {
      bytes: Buffer.from('GIF89a but not really'),
      contentType: 'image/png',
      width: 4,
      height: 4,
    };
    await expect(tools.run(await editRequest({ image }), recordingContext())).rejects.toMatchObject({
      kind: 'rejected',
      userMessage: 'The image is not an image we can read. Try a JPEG, PNG or WebP file.',
    });
  });
});
