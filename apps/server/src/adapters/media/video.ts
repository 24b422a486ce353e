import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';

/**
 * Video helpers over the ffmpeg binary (the static build from @ffmpeg-installer/ffmpeg unless
 * FFMPEG_PATH names another). That package ships no ffprobe, so probing reads what `ffmpeg -i`
 * prints about its input. Every provider's video (local pan-and-zoom, fal, Replicate) goes through
 * `probeVideo` and `posterFrame` before it is stored.
 */

export interface VideoInfo {
  /** Display size: a rotation recorded by a phone is already applied. */
  width: number;
  height: number;
  durationSeconds: number;
  /** ffmpeg's codec name (`h264`, `hevc`, `vp9`…). */
  codec: string;
}

/** A video ffmpeg could not read, with a sentence for the person who sent it. */
export class VideoError extends Error {
  constructor(
    message: string,
    readonly userMessage: string,
  ) {
    super(message);
    this.name = 'VideoError';
  }
}

/** Thrown by `runFfmpeg` when its signal aborts; ffmpeg has been killed by then. */
export class FfmpegAbortedError extends Error {
  constructor() {
    super('ffmpeg was stopped');
    this.name = 'FfmpegAbortedError';
  }
}

/** The override when given, else the binary installed from npm by @ffmpeg-installer/ffmpeg. */
export function defaultFfmpegPath(override?: string): string {
  if (override) return override;
  try {
    // Loaded on first use: the package throws at import time on a platform it has no binary for.
    const installer = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string };
    return installer.path;
  } catch (cause) {
    throw new Error(`No ffmpeg binary for this platform; set FFMPEG_PATH (${String(cause)})`, { cause });
  }
}

export interface FfmpegRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface FfmpegOptions {
  signal?: AbortSignal;
  /** Bytes for stdin, or a writer that streams them (it must end the stream). */
  input?: Buffer | ((stdin: Writable) => Promise<void>);
  /** Receives stdout as it arrives (then `stdout` in the result stays empty). */
  onStdout?: (chunk: Buffer) => void;
  /** Kills ffmpeg after this long (default 120 s), so a pathological file cannot hold a job. */
  timeoutMs?: number;
}

const STDERR_LIMIT = 64 * 1024;

/**
 * Runs ffmpeg to the end. It resolves with the exit code (non-zero is not an error here: `ffmpeg -i`
 * alone exits 1); it rejects with FfmpegAbortedError when the signal aborts, after killing ffmpeg.
 */
export function runFfmpeg(
  ffmpegPath: string,
  args: string[],
  options: FfmpegOptions = {},
): Promise<FfmpegRun> {
  const { signal, input, onStdout, timeoutMs = 120_000 } = options;
  if (signal?.aborted) return Promise.reject(new FfmpegAbortedError());
  return new Promise<FfmpegRun>((resolve, reject) => {
    const child = spawn(ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    let settled = false;
    let stopped: Error | undefined;
    const stop = (reason: Error) => {
      if (stopped) return;
      stopped = reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(new FfmpegAbortedError());
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(new Error(`ffmpeg ran longer than ${timeoutMs} ms`)), timeoutMs);
    const finish = (error: Error | undefined, code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve({ code, stdout: Buffer.concat(stdout), stderr });
    };

    child.stdout.on('data', (chunk: Buffer) => (onStdout ? onStdout(chunk) : stdout.push(chunk)));
    child.stderr.on('data', (chunk: Buffer) => {
      // Keep the tail: the input description comes first and the error last, both short.
      if (stderr.length < STDERR_LIMIT) stderr += chunk.toString('utf8');
    });
    // ffmpeg may stop reading early (an error, a kill); the exit code tells what happened.
    child.stdin.on('error', () => {});
    child.on('error', (error) => finish(error, null));
    child.on('close', (code) => finish(stopped, code));

    if (input === undefined) child.stdin.end();
    else if (Buffer.isBuffer(input)) child.stdin.end(input);
    else
      input(child.stdin).catch((error: unknown) =>
        stop(error instanceof Error ? error : new Error(String(error))),
      );
  });
}

/** Parses the input description `ffmpeg -i` prints: duration, the first video stream's codec and size. */
export function parseFfmpegInput(stderr: string): VideoInfo | undefined {
  const duration = /Duration:\s*(\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const stream = /Stream #\d+:\d+[^\n]*?: Video: ([a-z0-9_]+)[^\n]*?, (\d{2,5})x(\d{2,5})[\s,[]/.exec(stderr);
  if (!duration || !stream) return undefined;
  const durationSeconds = Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]);
  let width = Number(stream[2]);
  let height = Number(stream[3]);
  // Phones record portrait video as landscape frames plus a rotation (`rotate : 90` in ffmpeg 4,
  // `displaymatrix: rotation of -90.00 degrees` in later versions); players show it turned.
  const after = stderr.slice(stream.index);
  const rotate = /rotate\s*:\s*(-?\d+)/.exec(after) ?? /rotation of (-?\d+(?:\.\d+)?) degrees/.exec(after);
  if (rotate && Math.abs(Math.round(Number(rotate[1]))) % 180 === 90) [width, height] = [height, width];
  return { width, height, durationSeconds, codec: stream[1]! };
}

async function withTempFile<T>(bytes: Buffer, use: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lumina-video-'));
  try {
    // A file, not stdin: MP4s with the index at the end need a seekable input.
    const file = path.join(dir, 'input');
    await writeFile(file, bytes);
    return await use(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const unreadable = (detail: string) =>
  new VideoError(
    `ffmpeg could not read the video: ${detail}`,
    'This file is not a video we can read. Try an MP4 (H.264) file.',
  );

/** Size, duration and codec of a video, read by ffmpeg from the bytes. */
export function probeVideo(
  ffmpegPath: string,
  bytes: Buffer,
  options: { signal?: AbortSignal } = {},
): Promise<VideoInfo> {
  return withTempFile(bytes, async (file) => {
    const run = await runFfmpeg(ffmpegPath, ['-hide_banner', '-nostdin', '-i', file], {
      signal: options.signal,
      timeoutMs: 30_000,
    });
    const info = parseFfmpegInput(run.stderr);
    if (!info) throw unreadable(lastLine(run.stderr));
    return info;
  });
}

/** A JPEG of the frame at 0.5 s (the first frame when the video is shorter), at the video's size. */
export function posterFrame(
  ffmpegPath: string,
  bytes: Buffer,
  options: { signal?: AbortSignal } = {},
): Promise<Buffer> {
  return withTempFile(bytes, async (file) => {
    const grab = (at: string) =>
      runFfmpeg(
        ffmpegPath,
        // -ss before -i seeks the input (fast, and exact since ffmpeg 2.1); full-range YUV for JPEG.
        [
          '-hide_banner',
          '-nostdin',
          '-loglevel',
          'error',
          '-ss',
          at,
          '-i',
          file,
          '-frames:v',
          '1',
          '-vf',
          'format=yuvj420p',
          '-c:v',
          'mjpeg',
          '-q:v',
          '3',
          '-f',
          'image2pipe',
          'pipe:1',
        ],
        { signal: options.signal, timeoutMs: 30_000 },
      );
    let run = await grab('0.5');
    if (run.stdout.length === 0) run = await grab('0');
    if (run.stdout.length === 0) throw unreadable(lastLine(run.stderr));
    return run.stdout;
  });
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1]?.trim() || 'no output';
}
