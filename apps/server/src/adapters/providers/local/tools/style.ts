import sharp from 'sharp';
import type { CopyStyleRequest, ProviderImage } from '../../image-tools.ts';
import type { TextToImageProvider } from '../../text-to-image.ts';
import { createRng } from '../random.ts';
import { labStats, labToRgb, rgbToLab, type ChannelStats } from './colour.ts';
import { clamp, decodeInput, forEachBand, type RawImage, type ToolRun } from './common.ts';

/**
 * Local style transfer: the description is painted by the local text-to-image engine, then given the
 * reference's look:
 * - tone: the lightness histogram is matched to the reference's (its key, contrast and tone curve);
 * - palette: the colour axes (Lab a and b) get the reference's mean and spread (Reinhard et al. 2001),
 *   so a teal-and-orange reference turns the render teal and orange, a muted one mutes it;
 * - texture: fine detail is compared at the same scale; a grainier, crisper reference adds sharpening
 *   and grain, a smoother one softens.
 */

export const STYLE_SIZE = 1024;
const STYLE_MODEL = 'local/aurora';
/** Statistics are read at this size: enough for a histogram, cheap to convert. */
const STATS_SIDE = 256;
const HISTOGRAM_BINS = 1024;

export async function copyStyle(
  request: CopyStyleRequest,
  run: ToolRun,
  textToImage: TextToImageProvider,
): Promise<ProviderImage> {
  await run.progress(2, 'Reading the style image');
  const styleSmall = await decodeInput(request.style, 'style image', {
    fit: { width: STATS_SIDE, height: STATS_SIDE },
  });
  const styleLab = rgbToLab(styleSmall.data, styleSmall.channels);

  await run.progress(5, 'Painting your description');
  const rendered = await textToImage.run(
    {
      providerModel: STYLE_MODEL,
      prompt: request.description,
      seed: request.seed,
      width: STYLE_SIZE,
      height: STYLE_SIZE,
      numImages: 1,
    },
    {
      signal: run.signal,
      onProgress: (u) => run.progress(5 + ((u.percent ?? 0) / 100) * 50, u.message ?? 'Painting'),
      // This tool's request id was already reported; the inner render is part of it.
      onSubmitted: () => {},
    },
  );
  const render = await decodeInput(rendered.images[0]!, 'render');

  await run.progress(60, 'Matching palette and tone');
  const lab = rgbToLab(render.data, render.channels);
  await run.checkpoint();
  transferColour(lab, styleLab);
  const out = Buffer.alloc(render.width * render.height * 3);
  await forEachBand(run, render.width, render.height, (y0, y1) =>
    labToRgb(lab, out, y0 * render.width, y1 * render.width),
  );

  await run.progress(80, 'Matching texture');
  const styled = await matchTexture({ ...render, data: out, channels: 3 }, styleSmall, run);

  await run.progress(95, 'Encoding');
  const bytes = await sharp(styled, { raw: { width: render.width, height: render.height, channels: 3 } })
    .png()
    .toBuffer();
  return { bytes, contentType: 'image/png', width: render.width, height: render.height };
}

/**
 * Moves `lab` (interleaved L, a, b) to the style's statistics in place: L by histogram matching,
 * a and b by mean and standard deviation.
 */
export function transferColour(lab: Float32Array, styleLab: Float32Array): void {
  const n = lab.length / 3;
  const mapL = histogramMap(lab, styleLab);
  const src: ChannelStats = labStats(lab);
  const dst: ChannelStats = labStats(styleLab);
  // A near-grey render has almost no spread to scale; cap the gain so noise is not blown up.
  const gain = [1, 2].map((c) => clamp(dst.std[c]! / Math.max(src.std[c]!, 1e-3), 0, 4));
  for (let p = 0; p < n; p++) {
    const i = p * 3;
    lab[i] = mapL(lab[i]!);
    lab[i + 1] = (lab[i + 1]! - src.mean[1]) * gain[0]! + dst.mean[1];
    lab[i + 2] = (lab[i + 2]! - src.mean[2]) * gain[1]! + dst.mean[2];
  }
}

/** Histogram matching of the L channel (0..100): each value goes to the style value of the same rank. */
function histogramMap(lab: Float32Array, styleLab: Float32Array): (l: number) => number {
  const cdf = (values: Float32Array) => {
    const hist = new Float64Array(HISTOGRAM_BINS);
    const n = values.length / 3;
    for (let p = 0; p < n; p++) hist[binOf(values[p * 3]!)]! += 1;
    for (let b = 1; b < HISTOGRAM_BINS; b++) hist[b]! += hist[b - 1]!;
    for (let b = 0; b < HISTOGRAM_BINS; b++) hist[b]! /= n;
    return hist;
  };
  const from = cdf(lab);
  const to = cdf(styleLab);
  const table = new Float32Array(HISTOGRAM_BINS);
  let j = 0;
  for (let b = 0; b < HISTOGRAM_BINS; b++) {
    while (j < HISTOGRAM_BINS - 1 && to[j]! < from[b]!) j++;
    table[b] = ((j + 0.5) / HISTOGRAM_BINS) * 100;
  }
  return (l) => table[binOf(l)]!;
}

const binOf = (l: number) => clamp(Math.floor((l / 100) * HISTOGRAM_BINS), 0, HISTOGRAM_BINS - 1);

/** Mean absolute difference between a grey image and its blur: how much fine detail and grain it has. */
async function detail(img: RawImage): Promise<number> {
  const grey = await sharp(img.data, {
    raw: { width: img.width, height: img.height, channels: img.channels as 3 },
  })
    .resize(STATS_SIDE, STATS_SIDE, { fit: 'inside' })
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const blurred = await sharp(grey.data, {
    raw: { width: grey.info.width, height: grey.info.height, channels: 1 },
  })
    .blur(1.2)
    .extractChannel(0)
    .raw()
    .toBuffer();
  let sum = 0;
  for (let i = 0; i < grey.data.length; i++) sum += Math.abs(grey.data[i]! - blurred[i]!);
  return sum / grey.data.length;
}

/** Sharpens and adds grain (a busier reference) or softens (a smoother one); returns RGB pixels. */
async function matchTexture(render: RawImage, style: RawImage, run: ToolRun): Promise<Buffer> {
  const want = await detail(style);
  const have = await detail(render);
  const raw = { raw: { width: render.width, height: render.height, channels: 3 as const } };
  if (want > have * 1.15) {
    const more = clamp((want - have) / Math.max(have, 0.5), 0, 4);
    const sharpened = await sharp(render.data, raw)
      .sharpen({ sigma: 1, m1: 0.5, m2: 1 + more })
      .raw()
      .toBuffer();
    // Grain sized to the missing detail (the reference at 256 px; scaled to this resolution).
    const amp = clamp((want - have) * 1.6, 0, 28);
    const rng = createRng(run.seed ^ 0x57e1e);
    await forEachBand(run, render.width, render.height, (y0, y1) => {
      for (let p = y0 * render.width, end = y1 * render.width; p < end; p++) {
        const n = (rng.next() + rng.next() + rng.next() - 1.5) * amp;
        for (let c = 0; c < 3; c++)
          sharpened[p * 3 + c] = clamp(Math.round(sharpened[p * 3 + c]! + n), 0, 255);
      }
    });
    return sharpened;
  }
  if (want < have * 0.85) {
    const sigma = clamp((1 - want / Math.max(have, 1e-3)) * 3, 0.4, 2.5);
    return sharp(render.data, raw).blur(sigma).raw().toBuffer();
  }
  return render.data;
}
