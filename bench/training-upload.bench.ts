/**
 * Training-set upload benchmark: 20 photos of 12 megapixels (4000 × 3000 phone-style JPEGs of
 * photo-like content with sensor noise and EXIF with GPS, ~4 MB each, each different so none is
 * refused as a duplicate) sent as one multipart `POST /api/upload_train_images` over real HTTP to a
 * Lumina process of its own (bench/pipeline-server.ts, production wiring, embedded PGlite): every
 * photo sniffed, normalised, thumbnailed, hashed and checked for hints, then stored with its rows.
 *
 * Reported per run: the request's wall time (first byte sent to answer read), the server's CPU time,
 * and the server's resident memory just before the upload and at its peak during it: the kernel's
 * own high-water mark (VmHWM in /proc/<pid>/status, reset before each run through clear_refs), so no
 * sampling interval can miss the peak. Each set is deleted after its run.
 *
 * Run: `npx tsx bench/training-upload.bench.ts [--runs 3] [--postgres] [--no-write]`; with --postgres the
 * server uses a fresh database on BENCH_DATABASE_URL, so its RSS leaves out the embedded database's. Writes the "Training-set
 * upload" section of docs/BENCHMARKS.md unless --no-write.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import sharp from 'sharp';
import { freshPostgres, machineNote, ms, photoPixels, table, writeSection } from './support.ts';

const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : 3;
const WRITE = !args.includes('--no-write');
/** PostgreSQL (BENCH_DATABASE_URL) instead of the embedded database, whose memory is the server's own. */
const POSTGRES = args.includes('--postgres');

const PHOTOS = 20;
const WIDTH = 4000;
const HEIGHT = 3000;

/** One camera-like JPEG for a seed, with EXIF and GPS to strip. */
async function photo(seed: number): Promise<Buffer> {
  const base = await photoPixels(seed, WIDTH, HEIGHT);
  return sharp(base, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 92 })
    .withExifMerge({
      IFD0: { Make: 'BenchCam', Model: 'B-12' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .toBuffer();
}

/** kB → MB, from a /proc/<pid>/status line ("VmRSS:   123456 kB"). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line!.split(/\s+/)[1]) / 1024;
}

/** Resets the process's VmHWM to its current RSS (Linux 4.0+: "5" to clear_refs). */
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

function startServer(env: Record<string, string>) {
  const server = path.resolve(import.meta.dirname, 'pipeline-server.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', server], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const cpuAnswers: Array<(ms: number) => void> = [];
  const ready = new Promise<{ port: number; token: string }>((resolve, reject) => {
    lines.on('line', (line) => {
      if (line.startsWith('{"ready"')) resolve(JSON.parse(line));
      if (line.startsWith('{"cpuMs"')) cpuAnswers.shift()?.((JSON.parse(line) as { cpuMs: number }).cpuMs);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready`)));
  });
  const cpuMs = () =>
    new Promise<number>((resolve) => {
      cpuAnswers.push(resolve);
      child.kill('SIGUSR2');
    });
  return { child, ready, cpuMs };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

console.log(`making ${PHOTOS} photos of ${WIDTH}×${HEIGHT}…`);
const photos: Buffer[] = [];
for (let i = 0; i < PHOTOS; i++) photos.push(await photo(i + 1));
const totalMb = photos.reduce((sum, p) => sum + p.length, 0) / (1024 * 1024);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumina-bench-training-'));
const database = POSTGRES ? await freshPostgres() : undefined;
const server = startServer({
  ...(database ? { DATABASE_URL: database.url } : {}),
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  ROLES: 'api',
  DATA_DIR: dataDir,
  WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  UPLOAD_QUOTA_BYTES: String(Number.MAX_SAFE_INTEGER),
  RATE_LIMIT_WRITE_PER_MINUTE: '1000000',
  RATE_LIMIT_IP_WRITE_PER_MINUTE: '1000000',
});
const { port, token } = await server.ready;
const pid = server.child.pid!;
const base = `http://127.0.0.1:${port}`;
const auth = { authorization: `Bearer ${token}` };

// Start-up (migrations, the embedded database) leaves garbage behind: let the process settle first.
await new Promise((r) => setTimeout(r, 5000));
const loadBefore = os.loadavg()[0]!;
const rows: string[][] = [];
const walls: number[] = [];
const rises: number[] = [];
for (let run = 1; run <= RUNS; run++) {
  const form = new FormData();
  photos.forEach((bytes, i) =>
    form.append(
      'files',
      new Blob([bytes], { type: 'image/jpeg' }),
      `IMG_${String(i + 1).padStart(4, '0')}.JPG`,
    ),
  );
  const before = statusMb(pid, 'VmRSS');
  resetPeak(pid);
  const cpu0 = await server.cpuMs();
  const t0 = performance.now();
  const res = await fetch(`${base}/api/upload_train_images`, { method: 'POST', headers: auth, body: form });
  const body = (await res.json()) as { id: string; photos: unknown[]; refused: unknown[]; detail?: string };
  const wall = performance.now() - t0;
  const cpu = (await server.cpuMs()) - cpu0;
  const peak = statusMb(pid, 'VmHWM');
  if (res.status !== 201 || body.photos.length !== PHOTOS) {
    throw new Error(`upload answered ${res.status}: ${JSON.stringify(body).slice(0, 500)}`);
  }
  walls.push(wall);
  rises.push(peak - before);
  rows.push([
    String(run),
    ms(wall),
    ms(wall / PHOTOS),
    ms(cpu),
    `${before.toFixed(0)} MB`,
    `${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)})`,
  ]);
  console.log(
    `run ${run}: ${ms(wall)} (${ms(cpu)} CPU), RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MB`,
  );
  await fetch(`${base}/api/training_sets/${body.id}`, { method: 'DELETE', headers: auth });
}
const loadAfter = os.loadavg()[0]!;
await stop(server.child);
await database?.drop();
rmSync(dataDir, { recursive: true, force: true });

const median = [...walls].sort((a, b) => a - b)[Math.floor(walls.length / 2)]!;
const section = `
Uploading and checking ${PHOTOS} photos of 12 megapixels (${WIDTH} × ${HEIGHT} JPEGs with EXIF and GPS,
${totalMb.toFixed(0)} MB in all) as one \`POST /api/upload_train_images\` over real HTTP to its own server
process (\`bench/pipeline-server.ts\`, production wiring, ${POSTGRES ? 'PostgreSQL' : 'embedded PGlite'}, local disk storage): each photo
sniffed, normalised (metadata stripped; upright JPEGs keep their data), thumbnailed, perceptually hashed
and checked for blur and subject, then stored with its row. \`bench/training-upload.bench.ts\`, ${RUNS} runs.

${table(['run', 'wall', 'per photo', 'server CPU', 'server RSS before', 'server RSS peak'], rows)}

Median ${ms(median)} for the ${PHOTOS} photos; the server's memory rose by at most ${Math.max(...rises).toFixed(0)} MB
above where it stood (the form's ${totalMb.toFixed(0)} MB is read into memory first, to count its files; its photos are
then checked, written and let go one at a time; a zip is spooled to disk instead).

${machineNote(loadBefore, loadAfter)}
`;
console.log(section);
if (WRITE) writeSection(`Training-set upload (${POSTGRES ? 'PostgreSQL' : 'PGlite'})`, section);
