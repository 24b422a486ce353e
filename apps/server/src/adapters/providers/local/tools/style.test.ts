import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LocalTextToImage } from '../local.text-to-image.ts';
import { labStats, rgbToLab, type ChannelStats } from './colour.ts';
import { LocalImageTools } from './local.image-tools.ts';
import { STYLE_SIZE, transferColour } from './style.ts';
import { makeImage, pixels, recordingContext } from './test-helpers.ts';

const textToImage = new LocalTextToImage();
const tools = new LocalImageTools({ ffmpegPath: 'unused', textToImage });

async function statsOf(bytes: Buffer): Promise<ChannelStats> {
  const { data, info } = await sharp(bytes).resize(256, 256, { fit: 'inside' }).removeAlpha().raw().toBuffer({
    resolveWithObject: true,
  });
  return labStats(rgbToLab(data, info.channels));
}

/** Distance between two images' colour statistics: Lab means and spreads. */
function distance(a: ChannelStats, b: ChannelStats): number {
  let d = 0;
  for (let c = 0; c < 3; c++) d += Math.abs(a.mean[c]! - b.mean[c]!) + Math.abs(a.std[c]! - b.std[c]!);
  return d;
}

describe('colour transfer', () => {
  it('gives the colour axes the style’s mean and spread, and matches the lightness histogram', () => {
    const n = 5000;
    const render = new Float32Array(n * 3);
    const style = new Float32Array(n * 3);
    for (let p = 0; p < n; p++) {
      render.set([30 + (p % 40), -10 + (p % 7), 5 + (p % 5)], p * 3);
      style.set([60 + (p % 30), 20 + (p % 13) * 2, -30 + (p % 11)], p * 3);
    }
    transferColour(render, style);
    const got = labStats(render);
    const want = labStats(style);
    for (let c = 0; c < 3; c++) {
      expect(got.mean[c]).toBeCloseTo(want.mean[c]!, 0);
      expect(Math.abs(got.std[c]! - want.std[c]!)).toBeLessThan(1);
    }
  });
});

describe('local copy style', () => {
  it('paints the description at 1024² and lands much closer to the style’s colours than the plain render', async () => {
    // A warm, high-contrast, orange-and-purple reference.
    const style = await makeImage(120, 90, (x, y) =>
      (x + y) % 30 < 15 ? [250, 130, 30] : [70, 20, 110].map((v) => v + ((x * 31 + y * 17) % 9)),
    );
    const description = 'a quiet lake under mountains';
    const seed = 21;
    const ctx = recordingContext();
    const result = await tools.run(
      { tool: 'copy_style', providerModel: 'local/style', seed, style, description },
      ctx,
    );
    if (result.kind !== 'images') throw new Error('expected images');
    const out = result.images[0]!;
    expect([out.width, out.height, out.contentType]).toEqual([STYLE_SIZE, STYLE_SIZE, 'image/png']);
    expect((await pixels(out.bytes)).width).toBe(STYLE_SIZE);

    const plain = await textToImage.run(
      {
        providerModel: 'local/aurora',
        prompt: description,
        seed,
        width: STYLE_SIZE,
        height: STYLE_SIZE,
        numImages: 1,
      },
      recordingContext(),
    );
    const target = await statsOf(style.bytes);
    const before = distance(await statsOf(plain.images[0]!.bytes), target);
    const after = distance(await statsOf(out.bytes), target);
    expect(after).toBeLessThan(before * 0.35);
    // The inner render's progress is folded into this job's, and its request id is not reported.
    expect(ctx.submitted).toHaveLength(1);
    const percents = ctx.progress.map((u) => u.percent!);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
  });
});
