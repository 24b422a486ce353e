/**
 * Local trainer benchmark: the local style trainer (no neural network: palette, tone curve, texture,
 * a cut-out subject) on 20 photos of 12 megapixels, as the upload pipeline keeps them (full size,
 * upright, metadata stripped: `normaliseUpload`), held in memory as the training job holds them.
 *
 * Each run is a fresh child process (`--child <dir>`) that reads the 20 normalised JPEGs, notes its
 * resident memory, trains, and reports wall time, CPU time and its peak resident set size (the
 * kernel's high-water mark VmHWM, so short decode bursts are not missed). The photos are made once by the
 * parent: a soft background (a coarse random field, upscaled), a subject in the middle, sensor-like
 * grain, JPEG quality 92.
 *
 * The first 5 photos are also trained on alone, to show what grows with the number of photos.
 *
 * Run: `npx tsx bench/local-trainer.bench.ts [--runs 3] [--no-write]`. Writes the "Local trainer"
 * section of docs/BENCHMARKS.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

const args = process.argv.slice(2);
const childDir = args.includes('--child') ? args[args.indexOf('--child') + 1] : undefined;
const childCount = args.includes('--count') ? Number(args[args.indexOf('--count') + 1]) : undefined;
const PHOTOS = 20;
const WIDTH = 4000;
const HEIGHT = 3000;

if (childDir) await child(childDir, childCount ?? PHOTOS);
else await parent();

async function child(dir: string, count: number): Promise<void> {
  const { LocalTrainer } =
    await import('../apps/server/src/adapters/providers/local/training/local-trainer.ts');
  const images = [];
  for (const name of readdirSync(dir).sort().slice(0, count)) {
    const bytes = readFileSync(path.join(dir, name));
    const meta = await sharp(bytes).metadata();
    images.push({ bytes, contentType: 'image/jpeg', width: meta.width, height: meta.height });
  }
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await new LocalTrainer().train(
    {
      providerModel: 'local/style-trainer',
      images,
      triggerWord: 'bench',
      subject: 'object',
      steps: 1000,
      baseProviderModel: 'local/aurora',
    },
    { signal: new AbortController().signal, onProgress() {}, onSubmitted() {} },
  );
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const profile = JSON.parse(result.weights.bytes.toString('utf8')) as { subject: unknown };
  console.log(
    JSON.stringify({
      wall,
      cpu: (cpu.user + cpu.system) / 1000,
      rssBefore,
      peakRss: peakRss(),
      profileBytes: result.weights.bytes.length,
      subject: profile.subject !== null,
    }),
  );
}

/**
 * This process's resident high-water mark. Linux keeps `getrusage`'s maxRSS across exec, so a child
 * would report the parent's peak (20 freshly made 12-megapixel photos) as its own; VmHWM belongs to
 * the process's own address space.
 */
function peakRss(): number {
  const status = readFileSync('/proc/self/status', 'utf8').match(/^VmHWM:\s+(\d+) kB/m);
  return status ? Number(status[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

async function parent(): Promise<void> {
  const { machineNote, ms, percentile, table, writeSection } = await import('./support.ts');
  const { normaliseUpload } = await import('../apps/server/src/modules/uploads/normalise.ts');
  const runsArg = args.indexOf('--runs');
  const RUNS = runsArg >= 0 ? Number(args[runsArg + 1]) : 3;
  const WRITE = !args.includes('--no-write');

  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumina-trainer-bench-'));
  let jpegBytes = 0;
  for (let i = 0; i < PHOTOS; i++) {
    const normalised = await normaliseUpload(await photo(i), { maxPixels: 50_000_000 });
    jpegBytes += normalised.bytes.length;
    writeFileSync(path.join(dir, `photo-${String(i).padStart(2, '0')}.jpg`), normalised.bytes);
  }

  const here = import.meta.filename;
  type Sample = { wall: number; cpu: number; rssBefore: number; peakRss: number; subject: boolean };
  const loadBefore = os.loadavg()[0]!;
  // Fewer photos too, to show what grows with their number and what does not.
  const counts = [5, PHOTOS];
  const byCount = new Map<number, Sample[]>(counts.map((c) => [c, []]));
  for (let run = 0; run < RUNS; run++)
    for (const count of counts) {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', here, '--child', dir, '--count', String(count)],
        {
          encoding: 'utf8',
          maxBuffer: 1 << 20,
        },
      );
      byCount.get(count)!.push(JSON.parse(out.trim().split('\n').at(-1)!) as Sample);
    }
  const loadAfter = os.loadavg()[0]!;
  rmSync(dir, { recursive: true, force: true });

  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  const rows = counts.map((count) => {
    const xs = byCount.get(count)!;
    const walls = xs.map((s) => s.wall);
    return [
      `${count} photos, ${WIDTH} × ${HEIGHT}`,
      String(xs.length),
      ms(percentile(walls, 50)),
      ms(Math.max(...walls)),
      ms(
        percentile(
          xs.map((s) => s.cpu),
          50,
        ),
      ),
      mb(
        percentile(
          xs.map((s) => s.rssBefore),
          50,
        ),
      ),
      mb(Math.max(...xs.map((s) => s.peakRss))),
      mb(Math.max(...xs.map((s) => s.peakRss - s.rssBefore))),
    ];
  });
  const out = table(
    ['what', 'runs', 'median', 'max', 'median CPU time', 'RSS before training', 'peak RSS', 'peak − before'],
    rows,
  );
  console.log(out);
  const samples = [...byCount.values()].flat();
  if (!samples.every((s) => s.subject)) console.log('warning: a run found no subject to cut out');
  if (WRITE) {
    writeSection(
      'Local trainer',
      `
The local style trainer (\`LocalTrainer.train\`: palette, tone curve, contrast, saturation, grain and
detail, a cut-out subject; no neural network) on ${PHOTOS} photos of ${WIDTH} × ${HEIGHT} (12 megapixels),
JPEG quality 92, normalised as uploads are (\`normaliseUpload\`: full size, upright, metadata stripped;
${mb(jpegBytes)} in all), held in memory as the training job holds them. Each run is a fresh process;
"RSS before training" is with the photos loaded, "peak RSS" the process's high-water mark.
Command: \`npx tsx bench/local-trainer.bench.ts\`.

${machineNote(loadBefore, loadAfter)}

${out}

How: one photo at a time, decoded by libjpeg at reduced scale (shrink-on-load) to 1024 px for grain
and detail, then 192 px for colour, tone and the subject search; only the chosen photo is decoded
again, at 512 px, for the cut-out. So what training adds above the loaded photos (the last column)
hardly depends on how many there are; the photos themselves are what the job holds.
`,
    );
  }
}

/** A phone-like photo: soft background, a subject in the middle, grain. */
async function photo(index: number): Promise<Buffer> {
  let seed = 1000 + index * 7919;
  const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const coarse = Buffer.alloc(8 * 6 * 3);
  const tint = [random() * 80 + 120, random() * 80 + 120, random() * 80 + 120];
  for (let i = 0; i < coarse.length; i++) coarse[i] = Math.floor(tint[i % 3]! + (random() - 0.5) * 40);
  const background = await sharp(coarse, { raw: { width: 8, height: 6, channels: 3 } })
    .resize(WIDTH, HEIGHT, { kernel: 'cubic' })
    .png()
    .toBuffer();
  const rx = 700 + random() * 400;
  const ry = 800 + random() * 300;
  const colour = `rgb(${Math.floor(random() * 120)},${Math.floor(random() * 120)},${Math.floor(random() * 255)})`;
  const subject = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">` +
      `<ellipse cx="${WIDTH / 2}" cy="${HEIGHT / 2}" rx="${rx}" ry="${ry}" fill="${colour}"/></svg>`,
  );
  const grain = await sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: '#000000',
      noise: { type: 'gaussian', mean: 128, sigma: 10 },
    },
  })
    .png()
    .toBuffer();
  return sharp(background)
    .composite([{ input: subject }, { input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 92 })
    .toBuffer();
}
