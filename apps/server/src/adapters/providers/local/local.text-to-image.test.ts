import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { ProviderError, type RunContext, type TextToImageRequest } from '../text-to-image.ts';
import { LocalTextToImage, localRequestId } from './local.text-to-image.ts';
import { parseStyleProfile, type StyleProfile } from './style-profile.ts';
import { LOCAL_TRAINER_MODEL, LocalTrainer } from './training/local-trainer.ts';
import {
  bust,
  centredObject,
  dark,
  meanColour,
  photos,
  warm,
  type Paint,
} from './training/photos.test-helpers.ts';

const engine = new LocalTextToImage();

function context(
  overrides: Partial<RunContext> = {},
): RunContext & { progress: number[]; submitted: string[] } {
  const progress: number[] = [];
  const submitted: string[] = [];
  return {
    signal: new AbortController().signal,
    onProgress: (u) => void progress.push(u.percent ?? -1),
    onSubmitted: (id) => void submitted.push(id),
    progress,
    submitted,
    ...overrides,
  };
}

const req = (over: Partial<TextToImageRequest> = {}): TextToImageRequest => ({
  providerModel: 'local/aurora',
  prompt: 'sunset over mountains',
  seed: 7,
  width: 512,
  height: 512,
  numImages: 1,
  ...over,
});

async function render(over: Partial<TextToImageRequest> = {}): Promise<Buffer> {
  const { images } = await engine.run(req(over), context());
  return images[0]!.bytes;
}

interface Stats {
  r: number;
  g: number;
  b: number;
  /** Mean HSL-style saturation, 0..1. */
  saturation: number;
  /** Small isolated bright points (stars) in the top half. */
  points: number;
}

async function stats(png: Buffer): Promise<Stats> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h, channels: c } = info;
  let r = 0;
  let g = 0;
  let b = 0;
  let sat = 0;
  const lum = new Float32Array(w * h);
  for (let p = 0; p < w * h; p++) {
    const R = data[p * c]!;
    const G = data[p * c + 1]!;
    const B = data[p * c + 2]!;
    r += R;
    g += G;
    b += B;
    const max = Math.max(R, G, B);
    const min = Math.min(R, G, B);
    sat += max === 0 ? 0 : (max - min) / max;
    lum[p] = 0.299 * R + 0.587 * G + 0.114 * B;
  }
  let points = 0;
  const d = 5;
  for (let y = d; y < h / 2; y++)
    for (let x = d; x < w - d; x++) {
      const v = lum[y * w + x]!;
      if (v < 150) continue;
      const around =
        (lum[(y - d) * w + x]! + lum[(y + d) * w + x]! + lum[y * w + x - d]! + lum[y * w + x + d]!) / 4;
      if (v - around > 60 && v >= lum[y * w + x - 1]! && v >= lum[(y - 1) * w + x]!) points++;
    }
  const n = w * h;
  return { r: r / n, g: g / n, b: b / n, saturation: sat / n, points };
}

describe('LocalTextToImage', () => {
  it('is the always-available local provider', () => {
    expect(engine.name).toBe('local');
    expect(engine.available).toBe(true);
  });

  describe('determinism', () => {
    it('gives byte-identical PNGs for the same inputs, and different bytes for another seed', async () => {
      const a = await render({ width: 1024, height: 1024 });
      const b = await render({ width: 1024, height: 1024 });
      expect(a.equals(b)).toBe(true);
      expect(a.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      const c = await render({ width: 1024, height: 1024, seed: 8 });
      expect(c.equals(a)).toBe(false);
    });

    it('gives the same bytes from a fresh module instance', async () => {
      const a = await render({ prompt: 'neon city at night, film grain' });
      vi.resetModules();
      const fresh = await import('./local.text-to-image.ts');
      const { images } = await new fresh.LocalTextToImage().run(
        req({ prompt: 'neon city at night, film grain' }),
        context(),
      );
      expect(images[0]!.bytes.equals(a)).toBe(true);
    });

    it('changes with the model, the prompt and the negative prompt', async () => {
      const base = await render();
      expect((await render({ providerModel: 'local/prism' })).equals(base)).toBe(false);
      expect((await render({ prompt: 'sunset over mountains with a lake' })).equals(base)).toBe(false);
      expect((await render({ negativePrompt: 'sun' })).equals(base)).toBe(false);
    });

    it('gives distinct images for prompts it has no words for', async () => {
      const a = await render({ prompt: 'a cat wearing a hat' });
      const b = await render({ prompt: 'a dog reading a book' });
      expect(a.equals(b)).toBe(false);
    });

    it('derives a stable local-<hash> request id from the inputs', async () => {
      const ctx = context();
      const result = await engine.run(req(), ctx);
      expect(result.requestId).toMatch(/^local-[0-9a-f]{16}$/);
      expect(ctx.submitted).toEqual([result.requestId]);
      expect(localRequestId(req())).toBe(result.requestId);
      expect(localRequestId(req({ seed: 8 }))).not.toBe(result.requestId);
    });
  });

  describe('prompt steering (measured on pixels)', () => {
    it('makes "sunset" warmer than "ocean night"', async () => {
      const sunset = await stats(await render({ prompt: 'sunset over the hills' }));
      const ocean = await stats(await render({ prompt: 'ocean at night' }));
      expect(sunset.r - sunset.b).toBeGreaterThan(ocean.r - ocean.b + 30);
    });

    it('makes "forest" green-dominant and "neon cyberpunk" dark with magenta/cyan', async () => {
      const forest = await stats(await render({ prompt: 'pine forest' }));
      expect(forest.g).toBeGreaterThan(forest.r);
      expect(forest.g).toBeGreaterThan(forest.b);
      const neon = await stats(await render({ prompt: 'neon cyberpunk street' }));
      expect((neon.r + neon.g + neon.b) / 3).toBeLessThan(90);
      expect(neon.b).toBeGreaterThan(neon.g);
    });

    it('renders "monochrome" and "black and white" with near-zero saturation', async () => {
      for (const prompt of [
        'minimal monochrome',
        'black and white mountains',
        'monochrome portrait, film grain',
      ]) {
        const s = await stats(await render({ prompt }));
        expect(s.saturation, prompt).toBeLessThan(0.02);
      }
      const colour = await stats(await render({ prompt: 'mountains' }));
      expect(colour.saturation).toBeGreaterThan(0.1);
    });

    it('paints a star field for "stars night" and drops it when the negative prompt says "stars"', async () => {
      const starry = await stats(await render({ prompt: 'stars night' }));
      const none = await stats(await render({ prompt: 'stars night', negativePrompt: 'stars' }));
      expect(starry.points).toBeGreaterThan(40);
      expect(none.points).toBeLessThan(starry.points / 5);
    });

    it('removes a colour named in the negative prompt', async () => {
      const blue = await stats(await render({ prompt: 'ocean' }));
      const notBlue = await stats(await render({ prompt: 'ocean', negativePrompt: 'blue' }));
      expect(notBlue.b - notBlue.r).toBeLessThan(blue.b - blue.r - 20);
    });

    it('moves the palette with colour words', async () => {
      const red = await stats(await render({ prompt: 'red mountains' }));
      const green = await stats(await render({ prompt: 'green mountains' }));
      expect(red.r - red.g).toBeGreaterThan(green.r - green.g + 20);
    });

    it('lets promptStrength blend from the neutral base to the prompt', async () => {
      const strong = await stats(await render({ prompt: 'fire', promptStrength: 1 }));
      const weak = await stats(await render({ prompt: 'fire', promptStrength: 0 }));
      expect(strong.r - strong.b).toBeGreaterThan(weak.r - weak.b + 40);
    });
  });

  describe('sizes and image count', () => {
    it('respects width and height exactly, for any multiple of 8 from 256 to 2048', async () => {
      for (const [width, height] of [
        [256, 256],
        [1024, 576],
        [576, 1024],
        [264, 2048],
        [1352, 760],
      ] as const) {
        const { images } = await engine.run(
          req({ width, height, prompt: 'city skyline at dusk' }),
          context(),
        );
        const meta = await sharp(images[0]!.bytes).metadata();
        expect([meta.width, meta.height, meta.format]).toEqual([width, height, 'png']);
        expect([images[0]!.width, images[0]!.height, images[0]!.contentType]).toEqual([
          width,
          height,
          'image/png',
        ]);
      }
    });

    it('refuses sizes outside the grid as a rejected request', async () => {
      for (const [width, height] of [
        [250, 512],
        [512, 2056],
        [513, 512],
      ]) {
        const err = await engine.run(req({ width, height }), context()).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ProviderError);
        expect((err as ProviderError).kind).toBe('rejected');
        expect((err as ProviderError).userMessage).toMatch(/multiple of 8 from 256 to 2048/);
      }
    });

    it('makes numImages images with seeds seed, seed+1, … and reports progress up to 100', async () => {
      const ctx = context();
      const { images, seed } = await engine.run(req({ numImages: 3, seed: 40 }), ctx);
      expect(seed).toBe(40);
      expect(images).toHaveLength(3);
      const single = await render({ seed: 41 });
      expect(images[1]!.bytes.equals(single)).toBe(true);
      expect(images[0]!.bytes.equals(images[1]!.bytes)).toBe(false);
      expect(ctx.progress[0]).toBe(0);
      expect(ctx.progress.at(-1)).toBe(100);
      expect([...ctx.progress].sort((a, b) => a - b)).toEqual(ctx.progress);
    });
  });

  describe('cancellation and errors', () => {
    it('stops with a cancelled ProviderError when the signal aborts mid-render', async () => {
      const controller = new AbortController();
      const ctx = context({
        signal: controller.signal,
        onProgress: (u) => {
          if ((u.percent ?? 0) > 0) controller.abort();
        },
      });
      const err = await engine.run(req({ numImages: 4 }), ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).kind).toBe('cancelled');
    });

    it('does not start when already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const ctx = context({ signal: controller.signal });
      await expect(engine.run(req(), ctx)).rejects.toMatchObject({ kind: 'cancelled' });
      expect(ctx.submitted).toEqual([]);
    });

    it('rejects unknown local models and LoRAs it cannot apply', async () => {
      await expect(engine.run(req({ providerModel: 'local/nope' }), context())).rejects.toMatchObject({
        kind: 'rejected',
        userMessage: expect.stringContaining('local/aurora'),
      });
      await expect(
        engine.run(req({ lora: { url: 'https://example.com/x.safetensors', scale: 1 } }), context()),
      ).rejects.toMatchObject({ kind: 'rejected' });
      await expect(
        engine.run(req({ lora: { url: 'local-style:missing', scale: 1 } }), context()),
      ).rejects.toMatchObject({
        kind: 'rejected',
      });
    });

    it('has nothing to cancel remotely', async () => {
      expect(await engine.cancel()).toBe(false);
    });
  });

  describe('style profiles (local-style: LoRAs)', () => {
    const teal: StyleProfile = {
      palette: [
        [0.05, 0.3, 0.3],
        [0.1, 0.6, 0.55],
        [0.6, 0.95, 0.9],
      ],
      contrast: 1.1,
    };
    const styled = new LocalTextToImage({
      styles: { get: async (id) => (id === 'teal' ? teal : undefined) },
    });

    it('blends the profile palette in, more with a higher scale', async () => {
      const plain = await stats(await render({ prompt: 'sunset over mountains' }));
      const run = async (scale: number) =>
        stats(
          (
            await styled.run(
              req({ prompt: 'sunset over mountains', lora: { url: 'local-style:teal', scale } }),
              context(),
            )
          ).images[0]!.bytes,
        );
      const light = await run(0.4);
      const full = await run(1.5);
      expect(full.g - full.r).toBeGreaterThan(light.g - light.r);
      expect(light.g - light.r).toBeGreaterThan(plain.g - plain.r);
    });
  });

  describe('profiles learned by the local trainer', () => {
    const learned = new Map<string, StyleProfile>();
    const trained = new LocalTrainer();
    async function learn(name: string, paint: (i: number) => Paint, noise?: number) {
      const images = await photos(5, paint, noise);
      const result = await trained.train(
        {
          providerModel: LOCAL_TRAINER_MODEL,
          images,
          triggerWord: name,
          subject: 'object',
          steps: 500,
          baseProviderModel: 'local/aurora',
        },
        context(),
      );
      learned.set(name, parseStyleProfile(result.weights.bytes));
      return images;
    }
    const withProfiles = new LocalTextToImage({ styles: { get: async (id) => learned.get(id) } });
    const styled = async (id: string, scale: number, over: Partial<TextToImageRequest> = {}) =>
      (
        await withProfiles.run(
          req({ prompt: 'ocean at night', lora: { url: `local-style:${id}`, scale }, ...over }),
          context(),
        )
      ).images[0]!.bytes;
    const distance = (a: number[], b: number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

    it('shows nothing of the profile at scale 0: the same bytes as without it', async () => {
      await learn('object', centredObject);
      const plain = await render({ prompt: 'ocean at night' });
      expect((await styled('object', 0)).equals(plain)).toBe(true);
    });

    it('at scale 1 makes images measurably closer in colour to the training photos', async () => {
      const images = await learn('warm', warm);
      const colours = await Promise.all(images.map((i) => meanColour(i.bytes)));
      const target = [0, 1, 2].map((j) => colours.reduce((sum, c) => sum + c[j]!, 0) / colours.length);
      const none = distance(await meanColour(await styled('warm', 0)), target);
      const half = distance(await meanColour(await styled('warm', 0.5)), target);
      const full = distance(await meanColour(await styled('warm', 1)), target);
      expect(full).toBeLessThan(none * 0.5);
      expect(half).toBeLessThan(none);
      expect(full).toBeLessThan(half);
    });

    it('paints the cut-out subject as the main subject at scale 1', async () => {
      await learn('object', centredObject);
      const centre = async (png: Buffer) =>
        meanColour(await sharp(png).extract({ left: 216, top: 216, width: 80, height: 80 }).png().toBuffer());
      const [r0, , b0] = await centre(await styled('object', 0));
      const [r1, g1, b1] = await centre(await styled('object', 1));
      // The red disc, over a dark blue night.
      expect(r1 - b1).toBeGreaterThan(80);
      expect(r1 - g1).toBeGreaterThan(60);
      expect(r0 - b0).toBeLessThan(0);
    });

    it('stands a portrait on the bottom edge of the picture', async () => {
      await learn('bust', bust);
      const bottom = async (png: Buffer) =>
        meanColour(await sharp(png).extract({ left: 236, top: 496, width: 40, height: 16 }).png().toBuffer());
      const prompt = { prompt: 'sunset over the hills' };
      const [r0, , b0] = await bottom(await styled('bust', 0, prompt));
      const [r1, , b1] = await bottom(await styled('bust', 1, prompt));
      // The dark blue of the shoulders, where the hills were.
      expect(b1 - r1).toBeGreaterThan(30);
      expect(b0 - r0).toBeLessThan(b1 - r1 - 30);
    });

    it('darkens images with a profile learned from dark photos', async () => {
      await learn('dark', dark);
      const lum = ([r, g, b]: number[]) => 0.299 * r! + 0.587 * g! + 0.114 * b!;
      const bright = { prompt: 'golden desert at noon' };
      const before = lum(await meanColour(await styled('dark', 0, bright)));
      const after = lum(await meanColour(await styled('dark', 1, bright)));
      expect(after).toBeLessThan(before - 40);
    });

    it("adds the photos' grain, more at a higher scale", async () => {
      await learn('grainy', warm, 70);
      const roughness = async (png: Buffer) => {
        const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
        let sum = 0;
        for (let i = 1; i < data.length; i++)
          if (i % info.width !== 0) sum += Math.abs(data[i]! - data[i - 1]!);
        return sum / data.length;
      };
      const none = await roughness(await styled('grainy', 0));
      const one = await roughness(await styled('grainy', 1));
      const two = await roughness(await styled('grainy', 2));
      expect(one).toBeGreaterThan(none * 1.5);
      expect(two).toBeGreaterThan(one);
    });

    it('is deterministic for a seed, and another seed gives another image', async () => {
      await learn('object', centredObject);
      const a = await styled('object', 1, { seed: 11 });
      expect((await styled('object', 1, { seed: 11 })).equals(a)).toBe(true);
      expect((await styled('object', 1, { seed: 12 })).equals(a)).toBe(false);
    });
  });
});
