import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { AnimateRequest, ProviderVideo } from '../../image-tools.ts';
import { ProviderError } from '../../text-to-image.ts';
import { FfmpegAbortedError, runFfmpeg } from '../../../media/video.ts';
import { createRng } from '../random.ts';
import { cancelled, clamp, decodeInput, rejected, type ToolRun } from './common.ts';

/**
 * Local animate: a Ken Burns pan-and-zoom over the image, H.264 in MP4 (yuv420p, moov atom first so
 * it starts playing at once), 24 fps, 1280×720 for landscape and square images and 720×1280 for
 * portrait ones.
 *
 * Frames are rendered here, not with ffmpeg's zoompan: zoompan crops at whole input pixels, so slow
 * moves judder unless the input is pre-scaled several times larger (slow and memory-hungry). We
 * scale the image once (Lanczos) so the tightest crop is exactly the output size, then sample every
 * frame's crop rectangle with sub-pixel precision (bilinear; the crop is never more than 1.3× the
 * output, so no aliasing to speak of) and pipe raw RGB frames to ffmpeg, which encodes on the other
 * core while the next frame is drawn.
 */

export const FPS = 24;
export const MAX_DURATION_SECONDS = 30;

export type Motion = 'zoom-in' | 'zoom-out' | 'pan-left' | 'pan-right' | 'pan-up' | 'pan-down';
export const MOTIONS: readonly Motion[] = [
  'zoom-in',
  'zoom-out',
  'pan-left',
  'pan-right',
  'pan-up',
  'pan-down',
];

/** A move: zoom from → to, and the crop centre's position in its free range (0..1 per axis) from → to. */
export interface Move {
  motion: Motion;
  zoom: [number, number];
  x: [number, number];
  y: [number, number];
}

const MAX_ZOOM = 1.3;
const PAN_ZOOM = 1.18;

/** The move for a request: named in the prompt ("zoom in", "pan left"…), else picked by the seed. */
export function chooseMove(seed: number, prompt: string | undefined, aspect: number): Move {
  const rng = createRng(seed ^ 0x6b6e);
  const named = motionFromPrompt(prompt ?? '');
  // An image much wider than the frame pans sideways, a much taller one up or down: that is where
  // the picture is; otherwise the seed chooses among all moves.
  const choices: readonly Motion[] =
    aspect > 1.2
      ? ['pan-left', 'pan-right', 'zoom-in']
      : aspect < 0.85
        ? ['pan-up', 'pan-down', 'zoom-in']
        : MOTIONS;
  const motion = named ?? rng.pick(choices);
  const near = () => rng.range(0.35, 0.65);
  const drift = (): [number, number] => {
    const a = near();
    return [a, clamp(a + rng.range(-0.15, 0.15), 0, 1)];
  };
  switch (motion) {
    case 'zoom-in':
      return { motion, zoom: [1, MAX_ZOOM], x: [0.5, near()], y: [0.5, rng.range(0.3, 0.6)] };
    case 'zoom-out':
      return { motion, zoom: [MAX_ZOOM, 1], x: [near(), 0.5], y: [rng.range(0.3, 0.6), 0.5] };
    case 'pan-left':
      return { motion, zoom: [PAN_ZOOM, PAN_ZOOM], x: [1, 0], y: drift() };
    case 'pan-right':
      return { motion, zoom: [PAN_ZOOM, PAN_ZOOM], x: [0, 1], y: drift() };
    case 'pan-up':
      return { motion, zoom: [PAN_ZOOM, PAN_ZOOM], x: drift(), y: [1, 0] };
    case 'pan-down':
      return { motion, zoom: [PAN_ZOOM, PAN_ZOOM], x: drift(), y: [0, 1] };
  }
}

export function motionFromPrompt(prompt: string): Motion | undefined {
  const p = ` ${prompt.toLowerCase().replace(/[^a-z]+/g, ' ')} `;
  const rules: Array<[RegExp, Motion]> = [
    [/ (zoom|zooms|zooming) (in|into) | push (in|into) | dolly in | closer /, 'zoom-in'],
    [/ (zoom|zooms|zooming) out | pull (out|back) | dolly out | reveal /, 'zoom-out'],
    [/ pan(s|ning)? (to the )?left /, 'pan-left'],
    [/ pan(s|ning)? (to the )?right /, 'pan-right'],
    [/ (pan(s|ning)?|tilt(s|ing)?) up | rise | rising /, 'pan-up'],
    [/ (pan(s|ning)?|tilt(s|ing)?) down /, 'pan-down'],
  ];
  let best: { at: number; motion: Motion } | undefined;
  for (const [re, motion] of rules) {
    const m = re.exec(p);
    if (m && (!best || m.index < best.at)) best = { at: m.index, motion };
  }
  return best?.motion;
}

/** Gentle ease in and out (half linear, half smoothstep), so the move neither jerks nor stalls. */
const ease = (t: number) => 0.5 * t + 0.5 * t * t * (3 - 2 * t);

export interface AnimateOptions {
  ffmpegPath: string;
  /** x264 speed preset; `veryfast` keeps a 5 s clip to a few seconds on two cores at a quality (CRF 20) that looks clean. */
  preset?: string;
}

export async function animateImage(
  request: AnimateRequest,
  run: ToolRun,
  options: AnimateOptions,
): Promise<ProviderVideo> {
  const seconds = request.durationSeconds;
  if (
    !Number.isFinite(seconds) ||
    seconds <= 0 ||
    seconds > MAX_DURATION_SECONDS ||
    !Number.isInteger(seconds * FPS)
  ) {
    throw rejected(
      `bad duration ${seconds}`,
      `The video length must be a whole number of frames (1/${FPS} s) up to ${MAX_DURATION_SECONDS} seconds.`,
    );
  }
  const frames = Math.round(seconds * FPS);
  const { width: inW, height: inH } = request.image;
  const portrait = inH > inW;
  const outW = portrait ? 720 : 1280;
  const outH = portrait ? 1280 : 720;
  const outAspect = outW / outH;

  await run.progress(2, 'Preparing the image');
  // The largest frame-shaped crop of the image ("zoom 1"), scaled so the tightest crop (MAX_ZOOM) is
  // exactly the output size: every frame then samples at 1 to 1.3 source pixels per output pixel.
  const aspect = inW / inH;
  const move = chooseMove(request.seed, request.prompt, aspect / outAspect);
  const maxZoom = Math.max(move.zoom[0], move.zoom[1]);
  const baseW = aspect >= outAspect ? inH * outAspect : inW;
  const k = (outW * maxZoom) / baseW;
  const srcW = Math.round(inW * k);
  const srcH = Math.round(inH * k);
  const { data: src } = await decodeInput(request.image, 'image', { exact: { width: srcW, height: srcH } });
  const cropW0 = Math.min(srcW, srcH * outAspect);
  const cropH0 = cropW0 / outAspect;

  const dir = await mkdtemp(path.join(tmpdir(), 'lumina-animate-'));
  try {
    const file = path.join(dir, 'out.mp4');
    await run.progress(5, 'Rendering frames');
    let encodedFrames = 0;
    let progressLine = '';
    let lastReported = 5;
    const reportEncoded = (chunk: Buffer) => {
      // `-progress pipe:1` writes key=value lines; out_time_us (out_time_ms in ffmpeg 4, also µs) is
      // how much video is encoded.
      progressLine += chunk.toString('utf8');
      const lines = progressLine.split('\n');
      progressLine = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_(?:us|ms)=(\d+)/.exec(line);
        if (m) encodedFrames = Math.max(encodedFrames, (Number(m[1]) / 1e6) * FPS);
      }
      const percent = 5 + 90 * clamp(encodedFrames / frames, 0, 1);
      if (percent >= lastReported + 10) {
        lastReported = percent;
        // Fire and forget: the progress write must not hold the ffmpeg pipe.
        void Promise.resolve(run.progress(percent, 'Encoding the video')).catch(() => {});
      }
    };
    const writeFrames = async (stdin: Writable) => {
      // Two frame buffers: one is drawn while the other is still being written to ffmpeg (write()
      // copies nothing, so a buffer is reused only once its write has completed).
      const buffers = [Buffer.alloc(outW * outH * 3), Buffer.alloc(outW * outH * 3)];
      const pending: Array<Promise<void> | undefined> = [undefined, undefined];
      for (let f = 0; f < frames; f++) {
        const slot = f % 2;
        await pending[slot];
        if (run.signal.aborted) throw cancelled();
        const frame = buffers[slot]!;
        const t = ease(frames === 1 ? 0 : f / (frames - 1));
        const zoom = move.zoom[0] + (move.zoom[1] - move.zoom[0]) * t;
        const cw = cropW0 / zoom;
        const ch = cropH0 / zoom;
        const cx = move.x[0] + (move.x[1] - move.x[0]) * t;
        const cy = move.y[0] + (move.y[1] - move.y[0]) * t;
        sampleCrop(src, srcW, srcH, (srcW - cw) * cx, (srcH - ch) * cy, cw, ch, frame, outW, outH);
        const written = new Promise<void>((resolve, reject) =>
          stdin.write(frame, (error) => (error ? reject(error) : resolve())),
        );
        // Awaited above or below, but a cancel can leave the other slot's write un-awaited: when
        // ffmpeg is killed that write fails with EPIPE, which must not become an unhandled rejection.
        written.catch(() => {});
        pending[slot] = written;
        // Let I/O run (ffmpeg's progress, an abort) between frames.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      await Promise.all(pending);
      stdin.end();
    };
    let result;
    try {
      result = await runFfmpeg(
        options.ffmpegPath,
        [
          '-hide_banner',
          '-loglevel',
          'error',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          '-s',
          `${outW}x${outH}`,
          '-r',
          String(FPS),
          '-i',
          'pipe:0',
          '-frames:v',
          String(frames),
          '-c:v',
          'libx264',
          '-preset',
          options.preset ?? 'veryfast',
          '-crf',
          '20',
          '-pix_fmt',
          'yuv420p',
          '-profile:v',
          'high',
          '-movflags',
          '+faststart',
          '-progress',
          'pipe:1',
          '-nostats',
          '-y',
          file,
        ],
        { signal: run.signal, input: writeFrames, onStdout: reportEncoded, timeoutMs: 600_000 },
      );
    } catch (error) {
      if (error instanceof FfmpegAbortedError || run.signal.aborted) throw cancelled();
      if (error instanceof ProviderError) throw error;
      throw new ProviderError(
        `ffmpeg failed: ${String(error)}`,
        'transient',
        'Making the video failed. Please try again.',
        {
          cause: error,
        },
      );
    }
    if (result.code !== 0) {
      throw new ProviderError(
        `ffmpeg exited with ${result.code}: ${result.stderr.trim().slice(-500)}`,
        'transient',
        'Making the video failed. Please try again.',
      );
    }
    const bytes = await readFile(file);
    await run.progress(100, 'Done');
    return { bytes, contentType: 'video/mp4' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Samples the rectangle (x, y, w, h) of an RGB image into an outW × outH frame, bilinear, at
 * sub-pixel precision (pixel centres map to pixel centres).
 */
export function sampleCrop(
  src: Buffer,
  srcW: number,
  srcH: number,
  x: number,
  y: number,
  w: number,
  h: number,
  out: Buffer,
  outW: number,
  outH: number,
): void {
  const sx = w / outW;
  const sy = h / outH;
  const x0s = new Int32Array(outW);
  const x1s = new Int32Array(outW);
  const fxs = new Float32Array(outW);
  for (let i = 0; i < outW; i++) {
    const u = clamp(x + (i + 0.5) * sx - 0.5, 0, srcW - 1);
    const x0 = Math.floor(u);
    x0s[i] = x0 * 3;
    x1s[i] = Math.min(x0 + 1, srcW - 1) * 3;
    fxs[i] = u - x0;
  }
  for (let j = 0; j < outH; j++) {
    const v = clamp(y + (j + 0.5) * sy - 0.5, 0, srcH - 1);
    const y0 = Math.floor(v);
    const fy = v - y0;
    const row0 = y0 * srcW * 3;
    const row1 = Math.min(y0 + 1, srcH - 1) * srcW * 3;
    let o = j * outW * 3;
    for (let i = 0; i < outW; i++) {
      const fx = fxs[i]!;
      const a = row0 + x0s[i]!;
      const b = row0 + x1s[i]!;
      const c = row1 + x0s[i]!;
      const d = row1 + x1s[i]!;
      // Unrolled over R, G, B: this loop runs a million times a frame.
      let top = src[a]! + (src[b]! - src[a]!) * fx;
      let bottom = src[c]! + (src[d]! - src[c]!) * fx;
      out[o] = (top + (bottom - top) * fy + 0.5) | 0;
      top = src[a + 1]! + (src[b + 1]! - src[a + 1]!) * fx;
      bottom = src[c + 1]! + (src[d + 1]! - src[c + 1]!) * fx;
      out[o + 1] = (top + (bottom - top) * fy + 0.5) | 0;
      top = src[a + 2]! + (src[b + 2]! - src[a + 2]!) * fx;
      bottom = src[c + 2]! + (src[d + 2]! - src[c + 2]!) * fx;
      out[o + 2] = (top + (bottom - top) * fy + 0.5) | 0;
      o += 3;
    }
  }
}
