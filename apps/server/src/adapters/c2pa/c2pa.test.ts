import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { initSync, WasmReader } from '@contentauth/c2pa-wasm';
import { afterAll, describe, expect, it } from 'vitest';
import { samePixels } from '../../../test/support/images.ts';
import { defaultFfmpegPath, runFfmpeg } from '../media/video.ts';
import {
  contentCredentials,
  developmentCredentials,
  readCredentials,
  TRAINED_ALGORITHMIC_MEDIA,
} from './c2pa.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'lumina-c2pa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const made = { action: 'created' as const, model: 'FLUX dev', vendor: 'fal.ai', ingredients: [] };
const image = (format: 'png' | 'jpeg') => {
  const blank = sharp({ create: { width: 96, height: 64, channels: 3, background: '#c0ffee' } });
  return (format === 'png' ? blank.png() : blank.jpeg()).toBuffer();
};

const ffmpeg = defaultFfmpegPath();
/** A second of H.264 from ffmpeg's test pattern; `faststart` puts the index (moov) before the samples. */
async function mp4(faststart: boolean): Promise<Buffer> {
  const file = path.join(dir, `pattern-${faststart}.mp4`);
  const run = await runFfmpeg(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'testsrc=size=64x48:rate=10:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-pix_fmt', 'yuv420p', ...(faststart ? ['-movflags', '+faststart'] : []), file],
  ]);
  expect(run.code, run.stderr).toBe(0);
  return readFileSync(file);
}
/** Every decoded frame's checksum, as ffmpeg reads the file (errors included). */
async function frames(video: Buffer): Promise<string> {
  // From a file: an MP4 whose index comes last cannot be read from a pipe.
  const file = path.join(dir, `${randomUUID()}.mp4`);
  writeFileSync(file, video);
  const run = await runFfmpeg(ffmpeg, ['-v', 'error', '-i', file, '-f', 'framemd5', 'pipe:1']);
  return `${run.code} ${run.stderr} ${run.stdout.toString().replace(/^#.*\n/gm, '')}`;
}
const animated = { action: 'edited' as const, model: 'Animate', vendor: 'fal.ai', ingredients: ['img1'] };

describe('C2PA content credentials (c2pa-ts)', () => {
  it('signs a PNG and a JPEG without touching the pixels, and reads the claims back valid', async () => {
    const signer = contentCredentials(await developmentCredentials(dir));
    for (const format of ['png', 'jpeg'] as const) {
      const original = await image(format);
      const { bytes, signed } = await signer.sign(original, made);
      expect(signed).toBe(true);
      expect(bytes.length).toBeGreaterThan(original.length);
      expect(await samePixels(bytes, original)).toBe(true);
      const read = await readCredentials(bytes);
      expect(read).toMatchObject({
        generator: 'Lumina',
        issuer: 'Lumina Development Signer',
        actions: ['c2pa.created'],
        digitalSourceType: TRAINED_ALGORITHMIC_MEDIA,
        model: 'FLUX dev',
        vendor: 'fal.ai',
        ingredients: [],
        valid: true,
      });
    }
  });

  it('records an edit with its source images as ingredients', async () => {
    const signer = contentCredentials(await developmentCredentials(dir));
    const { bytes } = await signer.sign(await image('png'), {
      ...made,
      action: 'edited',
      ingredients: ['a1', 'b2'],
    });
    const read = await readCredentials(bytes);
    expect(read?.actions).toEqual(['c2pa.opened', 'c2pa.edited']);
    expect(read?.digitalSourceType).toMatch(/compositeWithTrainedAlgorithmicMedia$/);
    expect(read?.ingredients).toHaveLength(2);
    expect(read?.valid).toBe(true);
  });

  it('keeps the development certificate across restarts and fails validation when the pixels change', async () => {
    const first = await developmentCredentials(dir);
    expect(await developmentCredentials(dir)).toEqual(first);
    // Two processes starting at once (api and worker) end up with the same chain.
    const fresh = mkdtempSync(path.join(tmpdir(), 'lumina-c2pa-race-'));
    const [a, b] = await Promise.all([developmentCredentials(fresh), developmentCredentials(fresh)]);
    rmSync(fresh, { recursive: true, force: true });
    expect(a).toEqual(b);
    expect(a.certificatePem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    const { bytes } = await contentCredentials(first).sign(await image('png'), made);
    // Flip one byte of image data (the last IDAT chunk sits before IEND at the end of the file).
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 20]! ^= 0xff;
    const read = await readCredentials(tampered).catch(() => ({ valid: false }));
    expect(read?.valid).toBe(false);
  });

  it('is read as valid by the Content Authenticity Initiative’s own reader (c2pa-rs, through @contentauth/c2pa-wasm)', async () => {
    // The official reader checks what c2pa-ts may not: e.g. the ES256 signature as COSE's r‖s.
    initSync({
      module: readFileSync(createRequire(import.meta.url).resolve('@contentauth/c2pa-wasm/c2pa.wasm')),
    });
    const signer = contentCredentials(await developmentCredentials(dir));
    for (const [format, mime] of [
      ['png', 'image/png'],
      ['jpeg', 'image/jpeg'],
    ] as const) {
      const { bytes } = await signer.sign(await image(format), {
        ...made,
        action: 'edited',
        ingredients: ['a1'],
      });
      const reader = await WasmReader.fromBytes(mime, new Uint8Array(bytes));
      const store = JSON.parse(reader.json()) as {
        active_manifest: string;
        validation_state: string;
        validation_status?: Array<{ code: string }>;
        manifests: Record<
          string,
          {
            claim_generator_info: Array<{ name: string }>;
            ingredients: unknown[];
            assertions: Array<{
              label: string;
              data: { actions?: Array<{ action: string; digitalSourceType?: string }> };
            }>;
          }
        >;
      };
      // Valid, not Trusted: the development CA is on no trust list; nothing else is reported.
      expect(store.validation_state).toBe('Valid');
      expect(store.validation_status?.map((s) => s.code)).toEqual(['signingCredential.untrusted']);
      const manifest = store.manifests[store.active_manifest]!;
      expect(manifest.claim_generator_info[0]!.name).toBe('Lumina');
      expect(manifest.ingredients).toHaveLength(1);
      const actions = manifest.assertions.find((a) => a.label.startsWith('c2pa.actions'))!.data.actions!;
      expect(actions.map((a) => a.action)).toEqual(['c2pa.opened', 'c2pa.edited']);
      expect(actions[1]!.digitalSourceType).toMatch(/compositeWithTrainedAlgorithmicMedia$/);
      reader.free();
    }
  });

  it('signs an MP4, index first or last, so every frame decodes the same; both readers find it valid', async () => {
    const signer = contentCredentials(await developmentCredentials(dir));
    initSync({
      module: readFileSync(createRequire(import.meta.url).resolve('@contentauth/c2pa-wasm/c2pa.wasm')),
    });
    for (const faststart of [false, true]) {
      const original = await mp4(faststart);
      const { bytes, signed } = await signer.sign(original, animated);
      expect(signed).toBe(true);
      // The manifest box goes before the samples: without moving the chunk offsets, no frame decodes.
      expect(await frames(bytes)).toBe(await frames(original));
      expect(await readCredentials(bytes)).toMatchObject({
        actions: ['c2pa.opened', 'c2pa.edited'],
        digitalSourceType: expect.stringMatching(/compositeWithTrainedAlgorithmicMedia$/) as string,
        model: 'Animate',
        vendor: 'fal.ai',
        ingredients: ['Lumina image img1'],
        valid: true,
      });
      const reader = await WasmReader.fromBytes('video/mp4', new Uint8Array(bytes));
      const store = JSON.parse(reader.json()) as {
        validation_state: string;
        validation_status?: Array<{ code: string }>;
      };
      expect(store.validation_state).toBe('Valid');
      expect(store.validation_status?.map((s) => s.code)).toEqual(['signingCredential.untrusted']);
      reader.free();
      // A changed sample fails the hash.
      const tampered = Buffer.from(bytes);
      tampered[tampered.length - 200]! ^= 0xff;
      expect((await readCredentials(tampered).catch(() => ({ valid: false })))?.valid).toBe(false);
    }
  });

  it('leaves formats it cannot sign alone and says so; a file without a manifest reads as none', async () => {
    const signer = contentCredentials(await developmentCredentials(dir));
    const webp = await sharp(await image('png'))
      .webp()
      .toBuffer();
    expect(await signer.sign(webp, made)).toEqual({ bytes: webp, signed: false });
    // An AVIF image is a BMFF file too, but no video: it is made a PNG first, like WebP (image-output.ts).
    const avif = await sharp(await image('png'))
      .avif()
      .toBuffer();
    expect(await signer.sign(avif, made)).toEqual({ bytes: avif, signed: false });
    expect(await readCredentials(await image('png'))).toBeNull();
  });
});
