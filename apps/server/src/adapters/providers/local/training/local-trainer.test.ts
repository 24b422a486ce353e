import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { InputImage } from '../../image-tools.ts';
import { ProviderError, type ProgressUpdate, type RunContext } from '../../text-to-image.ts';
import type { TrainingRequest } from '../../trainer.ts';
import { parseStyleProfile, serializeStyleProfile, type StyleProfile } from '../style-profile.ts';
import { LOCAL_TRAINER_MODEL, LocalTrainer } from './local-trainer.ts';
import { bust, busy, centredObject, dark, photos, warm } from './photos.test-helpers.ts';

const trainer = new LocalTrainer();

function context(overrides: Partial<RunContext> = {}) {
  const progress: ProgressUpdate[] = [];
  const submitted: string[] = [];
  const ctx: RunContext = {
    signal: new AbortController().signal,
    onProgress: (u) => void progress.push(u),
    onSubmitted: (id) => void submitted.push(id),
    ...overrides,
  };
  return { ctx, progress, submitted };
}

const request = (images: InputImage[], over: Partial<TrainingRequest> = {}): TrainingRequest => ({
  providerModel: LOCAL_TRAINER_MODEL,
  images,
  triggerWord: 'lmnstyle',
  subject: 'object',
  steps: 1000,
  baseProviderModel: 'local/aurora',
  ...over,
});

async function learn(images: InputImage[], over: Partial<TrainingRequest> = {}): Promise<StyleProfile> {
  const result = await trainer.train(request(images, over), context().ctx);
  return parseStyleProfile(result.weights.bytes);
}

/** Palette colours averaged by how much of the photos each covers. */
function weightedMean(profile: StyleProfile): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  profile.palette.forEach((c, i) => {
    for (let j = 0; j < 3; j++) out[j]! += c[j]! * profile.weights![i]!;
  });
  return out;
}

describe('LocalTrainer', () => {
  it('is the always-available local trainer, with nothing remote to cancel', async () => {
    expect([trainer.name, trainer.available]).toEqual(['local', true]);
    expect(await trainer.cancel()).toBe(false);
  });

  it('returns the profile as JSON weights that generate with the base model', async () => {
    const { ctx, submitted } = context();
    const result = await trainer.train(request(await photos(5, warm)), ctx);
    expect(result.kind).toBe('model');
    expect(result.requestId).toMatch(/^local-train-[0-9a-f-]{36}$/);
    expect(submitted).toEqual([result.requestId]);
    expect(result.weights).toMatchObject({
      contentType: 'application/json',
      fileName: 'style-profile.json',
      generateWith: 'local/aurora',
    });
    const profile = parseStyleProfile(result.weights.bytes);
    expect(profile.palette.length).toBeGreaterThanOrEqual(3);
    expect(profile.palette.length).toBeLessThanOrEqual(8);
    expect(profile.weights!.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    expect(serializeStyleProfile(profile).equals(result.weights.bytes)).toBe(true);
  });

  it('learns a warm palette from warm photos and a cool one from night photos', async () => {
    const [r, , b] = weightedMean(await learn(await photos(5, warm)));
    expect(r - b).toBeGreaterThan(0.4);
    const [nr, , nb] = weightedMean(await learn(await photos(5, dark)));
    expect(nb - nr).toBeGreaterThan(0.05);
  });

  it('learns a dark tone curve from dark photos, a brighter one from bright photos', async () => {
    const night = await learn(await photos(5, dark));
    const day = await learn(await photos(5, warm));
    expect(night.toneCurve).toHaveLength(16);
    expect(night.toneCurve![8]).toBeLessThan(0.2);
    expect(night.toneCurve![15]).toBeLessThan(0.35);
    expect(day.toneCurve![8]).toBeGreaterThan(night.toneCurve![8]! + 0.3);
    for (const curve of [night.toneCurve!, day.toneCurve!])
      expect([...curve].sort((a, b) => a - b)).toEqual(curve);
  });

  it('measures grain: noisy photos have more than clean ones', async () => {
    const clean = await learn(await photos(5, warm, 2));
    const noisy = await learn(await photos(5, warm, 60));
    expect(noisy.texture!.grain).toBeGreaterThan(clean.texture!.grain * 3);
  });

  it('cuts out a centred object: transparent border, opaque centre, placed in the middle', async () => {
    const { subject } = await learn(await photos(6, centredObject));
    expect(subject).toBeTruthy();
    const { data, info } = await sharp(Buffer.from(subject!.png, 'base64'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([subject!.width, subject!.height, 4]);
    expect(Math.max(info.width, info.height)).toBeLessThanOrEqual(512);
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3]!;
    let border = 0;
    for (let x = 0; x < info.width; x++) border = Math.max(border, alpha(x, 0), alpha(x, info.height - 1));
    for (let y = 0; y < info.height; y++) border = Math.max(border, alpha(0, y), alpha(info.width - 1, y));
    expect(border).toBe(0);
    const cx = info.width >> 1;
    const cy = info.height >> 1;
    expect(alpha(cx, cy)).toBe(255);
    // The subject's own colour (the red disc), not the background.
    const i = (cy * info.width + cx) * 4;
    expect(data[i]! - data[i + 2]!).toBeGreaterThan(120);
    expect(subject!.placement.x).toBeCloseTo(0.5, 1);
    expect(subject!.placement.y).toBeCloseTo(0.5, 1);
    expect(subject!.placement.height).toBeGreaterThan(0.4);
    expect(subject!.placement.height).toBeLessThan(0.75);
  });

  it('keeps a portrait cut by the bottom of the frame, marked as standing on it', async () => {
    const { subject } = await learn(await photos(5, bust), { subject: 'person' });
    expect(subject?.placement.grounded).toBe(true);
    const { data, info } = await sharp(Buffer.from(subject!.png, 'base64'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3]!;
    let top = 0;
    for (let x = 0; x < info.width; x++) top = Math.max(top, alpha(x, 0));
    expect(top).toBe(0);
    expect(alpha(info.width >> 1, info.height - 1)).toBeGreaterThan(200);
    expect((await learn(await photos(5, centredObject))).subject?.placement.grounded).toBe(false);
  });

  it('keeps no subject when no photo has a clear one, or when training a style', async () => {
    expect((await learn(await photos(5, busy))).subject?.placement).toBeUndefined();
    const style = await learn(await photos(5, centredObject), { subject: 'style' });
    expect(style.subject?.placement).toBeUndefined();
  });

  it('reports progress per photo and per stage, rising to 100', async () => {
    const { ctx, progress } = context();
    await trainer.train(request(await photos(5, warm)), ctx);
    const messages = progress.map((p) => p.message);
    expect(messages).toContain('Reading photo 3 of 5');
    expect(messages).toContain('Learning the palette');
    expect(messages).toContain('Learning the tone curve');
    const percents = progress.map((p) => p.percent!);
    expect(percents[0]).toBe(0);
    expect(percents.at(-1)).toBe(100);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  });

  it('stops with a cancelled ProviderError when the signal aborts mid-training', async () => {
    const controller = new AbortController();
    const { ctx, progress } = context({
      signal: controller.signal,
      onProgress: (u) => {
        progress.push(u);
        if (u.message === 'Reading photo 2 of 5') controller.abort();
      },
    });
    const err = await trainer.train(request(await photos(5, warm)), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('cancelled');
    expect(progress.map((p) => p.message)).not.toContain('Reading photo 3 of 5');
  });

  it('does not start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { ctx, submitted } = context({ signal: controller.signal });
    await expect(trainer.train(request(await photos(5, warm)), ctx)).rejects.toMatchObject({
      kind: 'cancelled',
    });
    expect(submitted).toEqual([]);
  });

  it('keeps the stored request id when a job is resumed', async () => {
    const { ctx, submitted } = context({ resumeRequestId: 'local-train-earlier' });
    const result = await trainer.train(request(await photos(5, warm)), ctx);
    expect([result.requestId, submitted]).toEqual(['local-train-earlier', ['local-train-earlier']]);
  });

  it('refuses another trainer model and an unreadable photo as rejected requests', async () => {
    const good = await photos(5, warm);
    await expect(
      trainer.train(request(good, { providerModel: 'fal-ai/flux-lora-fast-training' }), context().ctx),
    ).rejects.toMatchObject({ kind: 'rejected' });
    const broken = { ...good[0]!, bytes: Buffer.from('not an image at all') };
    await expect(trainer.train(request([...good, broken]), context().ctx)).rejects.toMatchObject({
      kind: 'rejected',
      userMessage: expect.stringContaining('Photo 6'),
    });
  });
});

describe('parseStyleProfile', () => {
  const valid: StyleProfile = {
    palette: [
      [0.9, 0.5, 0.2],
      [0.2, 0.1, 0.1],
    ],
    weights: [0.7, 0.3],
    contrast: 1,
    toneCurve: Array.from({ length: 16 }, (_, i) => i / 15),
  };
  const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));

  it('reads back what serializeStyleProfile wrote, and the older palette-only shape', () => {
    expect(parseStyleProfile(serializeStyleProfile(valid))).toEqual(valid);
    expect(parseStyleProfile(bytes({ palette: [[0, 0.5, 1]], contrast: 1.1 }))).toEqual({
      palette: [[0, 0.5, 1]],
      contrast: 1.1,
    });
  });

  it.each([
    ['not JSON', Buffer.from('{"palette": [')],
    ['JSON that is not an object', bytes([1, 2, 3])],
    ['no palette', bytes({ contrast: 1 })],
    ['an empty palette', bytes({ ...valid, palette: [], weights: [] })],
    ['a colour out of range', bytes({ ...valid, palette: [[2, 0, 0]], weights: [1] })],
    ['weights that do not match the palette', bytes({ ...valid, weights: [1] })],
    ['a decreasing tone curve', bytes({ ...valid, toneCurve: [...valid.toneCurve!].reverse() })],
    ['a tone curve of the wrong length', bytes({ ...valid, toneCurve: [0, 1] })],
    [
      'a subject that is not a PNG',
      bytes({
        ...valid,
        subject: {
          png: Buffer.from('GIF89a-not-a-png').toString('base64'),
          width: 10,
          height: 10,
          placement: { x: 0.5, y: 0.5, height: 0.5 },
        },
      }),
    ],
  ])('refuses %s', (_, input) => {
    expect(() => parseStyleProfile(input)).toThrow(/Malformed style profile/);
  });
});
