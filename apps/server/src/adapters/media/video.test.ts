import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultFfmpegPath,
  FfmpegAbortedError,
  parseFfmpegInput,
  posterFrame,
  probeVideo,
  runFfmpeg,
  VideoError,
} from './video.ts';

const ffmpeg = defaultFfmpegPath();
let dir: string;

/** A test video from ffmpeg's built-in pattern source: H.264 or VP9, any size and length. */
async function makeVideo(name: string, args: string[]): Promise<Buffer> {
  const file = path.join(dir, name);
  const run = await runFfmpeg(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args, file]);
  expect(run.code, run.stderr).toBe(0);
  return readFile(file);
}

/** An H.264 MP4 of an ffmpeg test source (`lavfi`), encoded fast. */
const makeH264 = (name: string, source: string) =>
  makeVideo(name, [
    '-f',
    'lavfi',
    '-i',
    source,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
  ]);

let h264: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'lumina-video-test-'));
  // 1.5 s of 320×240 at 24 fps; the moov atom at the end (no faststart), as many cameras write.
  h264 = await makeH264('pattern.mp4', 'testsrc=size=320x240:rate=24:duration=1.5');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('defaultFfmpegPath', () => {
  it('prefers the configured binary, else the one installed from npm', () => {
    expect(defaultFfmpegPath('/opt/ffmpeg/bin/ffmpeg')).toBe('/opt/ffmpeg/bin/ffmpeg');
    expect(defaultFfmpegPath()).toMatch(/@ffmpeg-installer[/\\].+ffmpeg$/);
  });
});

describe('probeVideo', () => {
  it('reads codec, size and duration of an MP4', async () => {
    expect(await probeVideo(ffmpeg, h264)).toEqual({
      width: 320,
      height: 240,
      durationSeconds: 1.5,
      codec: 'h264',
    });
  });

  it('reads other codecs too (VP9 in WebM)', async () => {
    const webm = await makeVideo('pattern.webm', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x48:rate=10:duration=1',
      '-c:v',
      'libvpx-vp9',
      '-deadline',
      'realtime',
    ]);
    const info = await probeVideo(ffmpeg, webm);
    expect([info.codec, info.width, info.height]).toEqual(['vp9', 64, 48]);
    expect(Math.abs(info.durationSeconds - 1)).toBeLessThanOrEqual(0.1);
  });

  it('refuses bytes that are not a video with a sentence a person understands', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    for (const bytes of [Buffer.from('definitely not a video'), png, h264.subarray(0, 200)]) {
      const error = await probeVideo(ffmpeg, bytes).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VideoError);
      expect((error as VideoError).userMessage).toBe(
        'This file is not a video we can read. Try an MP4 (H.264) file.',
      );
    }
  });
});

describe('parseFfmpegInput', () => {
  it('swaps width and height for video recorded with a rotation (phones)', () => {
    const stderr = [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'in.mov':",
      '  Duration: 00:01:02.35, start: 0.000000, bitrate: 16000 kb/s',
      '    Stream #0:0(und): Video: hevc (Main) (hvc1 / 0x31637668), yuv420p(tv, bt709), 1920x1080, 15000 kb/s, 29.97 fps (default)',
      '    Metadata:',
      '      rotate          : 90',
      '    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, stereo, fltp, 96 kb/s (default)',
    ].join('\n');
    expect(parseFfmpegInput(stderr)).toEqual({
      width: 1080,
      height: 1920,
      durationSeconds: 62.35,
      codec: 'hevc',
    });
  });

  it('finds the video stream after an audio one and ignores SAR/DAR sizes', () => {
    const stderr = [
      '  Duration: 00:00:05.00, start: 0.000000, bitrate: 900 kb/s',
      '    Stream #0:0: Audio: aac (LC), 48000 Hz, stereo, fltp',
      '    Stream #0:1(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1280x720 [SAR 1:1 DAR 16:9], 800 kb/s, 24 fps',
    ].join('\n');
    expect(parseFfmpegInput(stderr)).toEqual({ width: 1280, height: 720, durationSeconds: 5, codec: 'h264' });
    expect(parseFfmpegInput('Duration: N/A')).toBeUndefined();
  });
});

describe('posterFrame', () => {
  it('is a JPEG of the video at its own size', async () => {
    const poster = await posterFrame(ffmpeg, h264);
    const meta = await sharp(poster).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 320, 240]);
  });

  it('falls back to the first frame for a video shorter than half a second', async () => {
    const short = await makeH264('short.mp4', 'color=c=red:size=64x64:rate=24:duration=0.25');
    const { data, info } = await sharp(await posterFrame(ffmpeg, short))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([64, 64]);
    // Red, as the video is.
    expect(data[0]).toBeGreaterThan(200);
    expect(data[1]).toBeLessThan(60);
  });

  it('refuses a file that is not a video', async () => {
    await expect(posterFrame(ffmpeg, Buffer.from('nope'))).rejects.toBeInstanceOf(VideoError);
  });
});

describe('runFfmpeg', () => {
  it('kills ffmpeg when the signal aborts', async () => {
    const controller = new AbortController();
    // An endless encode to nowhere; aborted as soon as ffmpeg reports any progress.
    const running = runFfmpeg(
      ffmpeg,
      [
        '-hide_banner',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=24',
        '-progress',
        'pipe:1',
        '-f',
        'null',
        '-',
      ],
      { signal: controller.signal, onStdout: () => controller.abort() },
    );
    await expect(running).rejects.toBeInstanceOf(FfmpegAbortedError);
  });
});
