import { describe, expect, it } from 'vitest';
import type { EditRequest, InputImage, ToolResult } from '../../image-tools.ts';
import { LocalTextToImage } from '../local.text-to-image.ts';
import { parseEditPrompt } from './edit.ts';
import { LocalImageTools } from './local.image-tools.ts';
import {
  colourful,
  makeImage,
  meanAbsDiff,
  meanRgb,
  meanSaturation,
  pixels,
  recordingContext,
} from './test-helpers.ts';

const tools = new LocalImageTools({ ffmpegPath: 'unused', textToImage: new LocalTextToImage() });

async function edit(image: InputImage, over: Partial<EditRequest>): Promise<Buffer> {
  const result: ToolResult = await tools.run(
    { tool: 'edit', providerModel: 'local/edit', seed: 11, image, prompt: '', strength: 1, ...over },
    recordingContext(),
  );
  if (result.kind !== 'images') throw new Error('expected images');
  expect(result.images[0]!.contentType).toBe('image/png');
  return result.images[0]!.bytes;
}

describe('parseEditPrompt', () => {
  it('reads intents in prompt order and combines them', () => {
    const parsed = parseEditPrompt('Make it warmer, like a golden sunset, with film grain');
    expect(parsed.intents).toEqual(['warm', 'golden', 'grain']);
    expect(parsed.adjustments.warmth).toBeGreaterThan(0.9);
    expect(parsed.adjustments.grain).toBeGreaterThan(0);
  });

  it('reads "black and white" as one intent, not as colours', () => {
    const parsed = parseEditPrompt('black and white');
    expect(parsed.intents).toEqual(['mono']);
    expect(parsed.adjustments.saturation).toBe(0);
    expect(parsed.adjustments.tints).toEqual([]);
  });

  it('drops intents named in the negative prompt or after "no"/"without"', () => {
    expect(parseEditPrompt('vintage moody', 'moody').intents).toEqual(['vintage']);
    expect(parseEditPrompt('vivid colours, no grain').intents).toEqual(['vivid']);
    expect(parseEditPrompt('teal tint without vignette').intents).toEqual(['teal']);
  });

  it('scales intents with "slightly" and "very"', () => {
    const slight = parseEditPrompt('slightly warmer').adjustments.warmth;
    const normal = parseEditPrompt('warmer').adjustments.warmth;
    const very = parseEditPrompt('very warm').adjustments.warmth;
    expect(slight).toBeLessThan(normal);
    expect(very).toBeGreaterThan(normal);
  });

  it('falls back to a gentle enhance when no word is known, or every intent was removed', () => {
    for (const [prompt, negative] of [
      ['make my cat look majestic', ''],
      ['', ''],
      ['grain', 'grainy'],
    ] as const) {
      const parsed = parseEditPrompt(prompt, negative);
      expect(parsed.intents).toEqual(['enhance']);
      expect(parsed.adjustments.contrast).toBeGreaterThan(1);
    }
  });
});

describe('local edit', () => {
  it('"warmer sunset" raises the red/blue ratio, and more strength moves further; same size', async () => {
    const image = await colourful();
    const original = await pixels(image.bytes);
    const weak = await pixels(await edit(image, { prompt: 'warmer sunset', strength: 0.3 }));
    const strong = await pixels(await edit(image, { prompt: 'warmer sunset', strength: 0.9 }));
    for (const out of [weak, strong]) {
      expect([out.width, out.height]).toEqual([image.width, image.height]);
    }
    const ratio = (p: typeof original) => {
      const [r, , b] = meanRgb(p);
      return r / b;
    };
    expect(ratio(weak)).toBeGreaterThan(ratio(original) * 1.05);
    expect(ratio(strong)).toBeGreaterThan(ratio(weak) * 1.1);
    const dWeak = meanAbsDiff(original, weak);
    const dStrong = meanAbsDiff(original, strong);
    expect(dWeak).toBeGreaterThan(2);
    expect(dStrong).toBeGreaterThan(dWeak * 2);
  });

  it('"cool night" lowers the red/blue ratio and darkens', async () => {
    const image = await colourful();
    const original = await pixels(image.bytes);
    const out = await pixels(await edit(image, { prompt: 'cool night', strength: 1 }));
    const [r0, g0, b0] = meanRgb(original);
    const [r1, g1, b1] = meanRgb(out);
    expect(r1 / b1).toBeLessThan((r0 / b0) * 0.85);
    expect(r1 + g1 + b1).toBeLessThan((r0 + g0 + b0) * 0.85);
  });

  it('"black and white" leaves almost no colour, even with grain', async () => {
    const image = await colourful();
    expect(meanSaturation(await pixels(image.bytes))).toBeGreaterThan(0.4);
    const out = await pixels(await edit(image, { prompt: 'black and white, film grain', strength: 1 }));
    expect(meanSaturation(out)).toBeLessThan(0.02);
  });

  it('a colour word tints towards that colour', async () => {
    const grey = await makeImage(64, 48, (x) => [60 + x * 2, 60 + x * 2, 60 + x * 2]);
    const [r, g, b] = meanRgb(await pixels(await edit(grey, { prompt: 'teal', strength: 1 })));
    expect(g).toBeGreaterThan(r + 10);
    expect(b).toBeGreaterThan(r + 10);
  });

  it('the negative prompt stops an intent: "vivid" minus "vivid" is the gentle default, not vivid', async () => {
    // Soft colours, so there is room to saturate.
    const image = await makeImage(64, 48, (x, y) => [120 + x, 110 + y, 100 + (x + y) / 2]);
    const original = meanSaturation(await pixels(image.bytes));
    const vivid = meanSaturation(await pixels(await edit(image, { prompt: 'vivid' })));
    const removed = meanSaturation(
      await pixels(await edit(image, { prompt: 'vivid', negativePrompt: 'vivid' })),
    );
    expect(vivid).toBeGreaterThan(original + 0.05);
    expect(removed).toBeLessThan(vivid - 0.03);
  });

  it('unknown words still change the picture visibly, and never crash', async () => {
    const image = await colourful();
    const out = await pixels(await edit(image, { prompt: '¿qué? 🙂 make it majestic', strength: 1 }));
    expect(meanAbsDiff(await pixels(image.bytes), out)).toBeGreaterThan(2);
  });

  it('is deterministic for a seed (grain included) and the seed changes the grain', async () => {
    const image = await colourful();
    const a = await edit(image, { prompt: 'grainy film', seed: 5 });
    const b = await edit(image, { prompt: 'grainy film', seed: 5 });
    const c = await edit(image, { prompt: 'grainy film', seed: 6 });
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
  });

  it('keeps transparency as it was', async () => {
    const image = await makeImage(40, 30, (x) => [200, 100, 50, x < 20 ? 0 : 255], 4);
    const out = await pixels(await edit(image, { prompt: 'dramatic', strength: 1 }));
    expect(out.channels).toBe(4);
    expect(out.data[3]).toBe(0);
    expect(out.data[(39 + 29 * 40) * 4 + 3]).toBe(255);
  });

  it('reports progress in order and ends with the blend', async () => {
    const ctx = recordingContext();
    const image = await colourful(32, 32);
    await tools.run(
      { tool: 'edit', providerModel: 'local/edit', seed: 1, image, prompt: 'sepia', strength: 0.5 },
      ctx,
    );
    const percents = ctx.progress.map((u) => u.percent!);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.length).toBeGreaterThanOrEqual(4);
    expect(ctx.progress.some((u) => /sepia/.test(u.message ?? ''))).toBe(true);
  });
});
