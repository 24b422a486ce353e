import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { BUILT_IN_MODELS } from './catalogue.ts';
import { LocalTextToImage } from './local/local.text-to-image.ts';
import { ProviderRegistry } from './registry.ts';
import type { TextToImageProvider } from './text-to-image.ts';

const local = new LocalTextToImage();
const vendor = (name: 'fal' | 'replicate', available: boolean): TextToImageProvider => ({
  name,
  available,
  run: async () => {
    throw new Error('not called');
  },
  cancel: async () => false,
});

describe('ProviderRegistry', () => {
  it('lists every model, marking those without a configured provider unavailable (not hidden)', () => {
    const registry = new ProviderRegistry(BUILT_IN_MODELS, { local });
    const list = registry.list();
    expect(list.map((m) => m.id)).toEqual(BUILT_IN_MODELS.map((m) => m.id));
    expect(list.filter((m) => m.available).map((m) => m.id)).toEqual(['local-aurora', 'local-prism']);
    const flux = list.find((m) => m.id === 'flux-dev')!;
    expect(flux.available).toBe(false);
    expect(flux.unavailableReason).toMatch(/no fal\.ai key configured/);
    expect(registry.find('local-aurora')).toMatchObject({ available: true });
    expect(registry.find('local-aurora')?.unavailableReason).toBeUndefined();
  });

  it('treats an adapter that reports no key as unavailable', () => {
    const registry = new ProviderRegistry(BUILT_IN_MODELS, {
      local,
      fal: vendor('fal', false),
      replicate: vendor('replicate', true),
    });
    expect(registry.find('flux-dev')?.available).toBe(false);
    expect(registry.find('sdxl')?.available).toBe(true);
  });

  it('resolves a model to its adapter', () => {
    const fal = vendor('fal', true);
    const registry = new ProviderRegistry(BUILT_IN_MODELS, { local, fal });
    expect(registry.get('local-prism')).toMatchObject({
      model: { providerModel: 'local/prism' },
      provider: local,
    });
    expect(registry.get('flux-dev').provider).toBe(fal);
  });

  it('refuses unknown ids naming the choices, and unavailable models with the reason (both 400)', () => {
    const registry = new ProviderRegistry(BUILT_IN_MODELS, { local });
    const unknown = (() => {
      try {
        registry.get('dall-e');
      } catch (e) {
        return e;
      }
    })() as AppError;
    expect(unknown).toBeInstanceOf(AppError);
    expect(unknown.code).toBe('VALIDATION_FAILED');
    expect(unknown.status).toBe(400);
    expect(unknown.userMessage).toBe('Unknown model "dall-e". Choose one of: local-aurora, local-prism.');
    expect(() => registry.get('sdxl')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        status: 400,
        userMessage: expect.stringMatching(/Replicate key/),
      }),
    );
  });

  it('defaults to the local Aurora model, or the first available one', () => {
    expect(new ProviderRegistry(BUILT_IN_MODELS, { local }).defaultModel().id).toBe('local-aurora');
    const noAurora = BUILT_IN_MODELS.filter((m) => m.id !== 'local-aurora');
    expect(new ProviderRegistry(noAurora, { local }).defaultModel().id).toBe('local-prism');
  });
});
