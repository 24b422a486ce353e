import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { defaultFfmpegPath, posterFrame, probeVideo } from '../../../media/video.ts';
import type { AnimateRequest, InputImage, ProviderVideo } from '../../image-tools.ts';
import { ProviderError } from '../../text-to-image.ts';
import { LocalTextToImage } from '../local.text-to-image.ts';
import { chooseMove, MOTIONS, motionFromPrompt, sampleCrop } from './animate.ts';
import { LocalImageTools } from './local.image-tools.ts';
import { colourful, recordingContext } from './test-helpers.ts';

const ffmpegPath = defaultFfmpegPath();
const tools = new LocalImageTools({ ffmpegPath, textToImage: new LocalTextToImage() });

async function animate(
  image: InputImage,
  over: Partial<AnimateRequest> = {},
  ctx = recordingContext(),
): Promise<ProviderVideo> {
  const result = await tools.run(
    { tool: 'animate', providerModel: 'local/pan-zoom', seed: 4, image, durationSeconds: 1, ...over },
    ctx,
  );
  if (result.kind !== 'video') throw new Error('expected a video');
  return result.video;
}

const tempDirs = async () => (await readdir(tmpdir())).filter((d) => d.startsWith('lumina-animate-'));

describe('local animate', () => {
  it('makes a 5 s 1280×720 H.264 MP4 with the index first, and a poster frame from it', async () => {
    const before = await tempDirs();
    const ctx = recordingContext();
    const video = await animate(await colourful(160, 100), { durationSeconds: 5 }, ctx);
    expect(video.contentType).toBe('video/mp4');
    expect(video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // +faststart: the moov atom comes before the media data.
    const moov = video.bytes.indexOf('moov');
    const mdat = video.bytes.indexOf('mdat');
    expect(moov).toBeGreaterThan(0);
    expect(moov).toBeLessThan(mdat);

    const info = await probeVideo(ffmpegPath, video.bytes);
    expect(info.codec).toBe('h264');
    expect([info.width, info.height]).toEqual([1280, 720]);
    expect(Math.abs(info.durationSeconds - 5)).toBeLessThanOrEqual(0.1);

    const poster = await sharp(await posterFrame(ffmpegPath, video.bytes)).metadata();
    expect([poster.format, poster.width, poster.height]).toEqual(['jpeg', 1280, 720]);

    const percents = ctx.progress.map((u) => u.percent!);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
    expect(ctx.progress.some((u) => u.message === 'Encoding the video')).toBe(true);
    // Temporary files are gone.
    expect((await tempDirs()).filter((d) => !before.includes(d))).toEqual([]);
  });

  it('is 720×1280 for a portrait image, and the same bytes for the same seed', async () => {
    const image = await colourful(60, 100);
    const a = await animate(image, { seed: 9 });
    const info = await probeVideo(ffmpegPath, a.bytes);
    expect([info.width, info.height]).toEqual([720, 1280]);
    expect(Math.abs(info.durationSeconds - 1)).toBeLessThanOrEqual(0.1);
    const b = await animate(image, { seed: 9 });
    expect(a.bytes.equals(b.bytes)).toBe(true);
  });

  it('stops when the job is cancelled: ffmpeg killed, cancelled error, no temp files left', async () => {
    const before = await tempDirs();
    const controller = new AbortController();
    const ctx = recordingContext({
      signal: controller.signal,
      onProgress: (u) => {
        ctx.progress.push(u);
        // Reported from ffmpeg's own progress output, so ffmpeg is running when the job is cancelled.
        if (u.message === 'Encoding the video') controller.abort();
      },
    });
    const error = await animate(await colourful(160, 90), { durationSeconds: 10 }, ctx).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'cancelled' });
    // Nothing is reported after the cancel, and the video never finished.
    expect(ctx.progress.filter((u) => u.message === 'Encoding the video')).toHaveLength(1);
    expect(ctx.progress.some((u) => u.percent === 100)).toBe(false);
    expect((await tempDirs()).filter((d) => !before.includes(d))).toEqual([]);
  });

  it('refuses a duration that is not a whole number of frames', async () => {
    await expect(animate(await colourful(32, 18), { durationSeconds: 0.01 })).rejects.toMatchObject({
      kind: 'rejected',
    });
  });
});

describe('motion', () => {
  it('follows the prompt when it names a move', () => {
    expect(motionFromPrompt('slowly zoom in on her face')).toBe('zoom-in');
    expect(motionFromPrompt('Pull back to reveal the city')).toBe('zoom-out');
    expect(motionFromPrompt('pan left across the hills')).toBe('pan-left');
    expect(motionFromPrompt('camera pans to the right')).toBe('pan-right');
    expect(motionFromPrompt('tilt up to the sky')).toBe('pan-up');
    expect(motionFromPrompt('a calm evening')).toBeUndefined();
    expect(chooseMove(1, 'zoom out', 1).motion).toBe('zoom-out');
  });

  it('is chosen by the seed otherwise: the same for a seed, varied across seeds', () => {
    expect(chooseMove(7, '', 1)).toEqual(chooseMove(7, '', 1));
    const seen = new Set(Array.from({ length: 40 }, (_, i) => chooseMove(i, undefined, 1).motion));
    expect(seen.size).toBeGreaterThanOrEqual(4);
    for (const m of seen) expect(MOTIONS).toContain(m);
    // A wide panorama pans sideways or zooms; it never pans up or down.
    for (let i = 0; i < 20; i++)
      expect(['pan-left', 'pan-right', 'zoom-in']).toContain(chooseMove(i, '', 2).motion);
  });

  it('samples crops at sub-pixel positions (smooth motion, no whole-pixel steps)', () => {
    // A horizontal ramp: value = 2 × x.
    const w = 100;
    const h = 4;
    const src = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) src.fill(2 * x, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const out = Buffer.alloc(10 * 2 * 3);
    const at = (x: number) => {
      sampleCrop(src, w, h, x, 0, 10, 2, out, 10, 2);
      return out[0]!;
    };
    expect(at(10)).toBe(20);
    expect(at(10.25)).toBe(21);
    expect(at(10.5)).toBe(21);
    expect(at(10.75)).toBe(22);
  });
});
