import { describe, expect, it } from 'vitest';
import { BUILT_IN_MODELS, type TextToImageModel } from '../../adapters/providers/catalogue.ts';
import type { ImageToolsProvider } from '../../adapters/providers/image-tools.ts';
import { LocalTextToImage } from '../../adapters/providers/local/local.text-to-image.ts';
import type { ProviderName, TextToImageProvider } from '../../adapters/providers/text-to-image.ts';
import { AppError } from '../../errors.ts';
import { ModelCatalogue, type PersonalModel, type Viewer } from './model-catalogue.ts';

const local = new LocalTextToImage();
const vendor = (name: ProviderName, available: boolean): TextToImageProvider & ImageToolsProvider => ({
  name,
  available,
  run: async () => {
    throw new Error('not called');
  },
  cancel: async () => false,
});
const localTools = vendor('local', true);
const textToImageIds = BUILT_IN_MODELS.filter((m) => m.capability === 'text-to-image').map((m) => m.id);

/** The error a call throws (the test fails when it does not throw). */
const thrown = (call: () => unknown): AppError => {
  try {
    call();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('did not throw');
};

describe('ModelCatalogue: text-to-image', () => {
  it('lists every model, marking those without a configured provider unavailable (not hidden)', () => {
    const catalogue = new ModelCatalogue(BUILT_IN_MODELS, { local: { textToImage: local } });
    const list = catalogue.list('text-to-image');
    expect(list.map((m) => m.id)).toEqual(textToImageIds);
    expect(list.filter((m) => m.available).map((m) => m.id)).toEqual(['local-aurora', 'local-prism']);
    const flux = list.find((m) => m.id === 'flux-dev')!;
    expect(flux.available).toBe(false);
    expect(flux.unavailableReason).toMatch(/no fal\.ai key configured/);
    expect(catalogue.find('local-aurora')).toMatchObject({ available: true });
    expect(catalogue.find('local-aurora')?.unavailableReason).toBeUndefined();
  });

  it('treats an adapter that reports no key as unavailable', () => {
    const catalogue = new ModelCatalogue(BUILT_IN_MODELS, {
      local: { textToImage: local },
      fal: { textToImage: vendor('fal', false) },
      replicate: { textToImage: vendor('replicate', true) },
    });
    expect(catalogue.find('flux-dev')?.available).toBe(false);
    expect(catalogue.find('sdxl')?.available).toBe(true);
  });

  it('resolves a model to its adapter', () => {
    const fal = vendor('fal', true);
    const catalogue = new ModelCatalogue(BUILT_IN_MODELS, {
      local: { textToImage: local },
      fal: { textToImage: fal },
    });
    expect(catalogue.get('text-to-image', 'local-prism')).toMatchObject({
      model: { providerModel: 'local/prism' },
      provider: local,
    });
    expect(catalogue.get('text-to-image', 'flux-dev').provider).toBe(fal);
    expect(catalogue.adapter('fal', 'text-to-image')).toBe(fal);
    expect(catalogue.adapter('replicate', 'text-to-image')).toBeUndefined();
  });

  it('refuses unknown ids naming the choices, and unavailable models with the reason (both 400)', () => {
    const catalogue = new ModelCatalogue(BUILT_IN_MODELS, { local: { textToImage: local } });
    const unknown = thrown(() => catalogue.get('text-to-image', 'dall-e'));
    expect(unknown).toBeInstanceOf(AppError);
    expect(unknown.code).toBe('VALIDATION_FAILED');
    expect(unknown.status).toBe(400);
    expect(unknown.userMessage).toBe('Unknown model "dall-e". Choose one of: local-aurora, local-prism.');
    // A tool's model is no text-to-image model.
    expect(thrown(() => catalogue.get('text-to-image', 'local-edit')).userMessage).toMatch(
      /^Unknown model "local-edit"\./,
    );
    expect(thrown(() => catalogue.get('text-to-image', 'sdxl')).userMessage).toBe(
      'Stable Diffusion XL (Replicate) is unavailable: This server has no Replicate key configured. ' +
        'Choose another model, such as Aurora · local procedural engine.',
    );
  });

  it('defaults to the local Aurora model, or the first available one', () => {
    const adapters = { local: { textToImage: local } };
    expect(new ModelCatalogue(BUILT_IN_MODELS, adapters).defaultModel('text-to-image')?.id).toBe(
      'local-aurora',
    );
    const noAurora = BUILT_IN_MODELS.filter((m) => m.id !== 'local-aurora');
    expect(new ModelCatalogue(noAurora, adapters).defaultModel('text-to-image')?.id).toBe('local-prism');
  });
});

describe('ModelCatalogue: image tools', () => {
  it('lists a tool’s models hosted first, defaulting to the first available one', () => {
    const catalogue = new ModelCatalogue(BUILT_IN_MODELS, { local: { tools: localTools } });
    expect(catalogue.list('upscale').map((m) => [m.id, m.available])).toEqual([
      ['fal-esrgan', false],
      ['replicate-esrgan', false],
      ['comfyui-esrgan', false],
      ['a1111-esrgan', false],
      ['local-upscale', true],
    ]);
    expect(catalogue.find('comfyui-esrgan')?.unavailableReason).toBe(
      'This server has no ComfyUI server connected.',
    );
    expect(catalogue.list('upscale')[0]!.unavailableReason).toBe('This server has no fal.ai key configured.');
    expect(catalogue.defaultModel('upscale')?.id).toBe('local-upscale');
    const fal = vendor('fal', true);
    const withFal = new ModelCatalogue(BUILT_IN_MODELS, {
      local: { tools: localTools },
      fal: { tools: fal },
    });
    expect(withFal.defaultModel('upscale')?.id).toBe('fal-esrgan');
    expect(withFal.get('upscale', undefined)).toMatchObject({ model: { id: 'fal-esrgan' }, provider: fal });
    // The text-to-image adapter of a vendor does not run its tools, and the reverse.
    expect(withFal.adapter('fal', 'edit')).toBe(fal);
    expect(withFal.adapter('fal', 'text-to-image')).toBeUndefined();
  });

  it('words refusals as the tools always have (both 400)', () => {
    const catalogue = new ModelCatalogue(BUILT_IN_MODELS, { local: { tools: localTools } });
    const unknown = thrown(() => catalogue.get('edit', 'local-upscale'));
    expect([unknown.code, unknown.status]).toEqual(['VALIDATION_FAILED', 400]);
    expect(unknown.userMessage).toBe(
      'Unknown model "local-upscale" for this tool. Choose one of: local-edit.',
    );
    expect(thrown(() => catalogue.get('edit', 'fal-flux-edit')).userMessage).toBe(
      'FLUX.1 [dev] image-to-image · fal.ai is unavailable: this server has no fal.ai key configured. Choose one of: local-edit.',
    );
  });

  it('finds a job’s model by id and capability only when it can run', () => {
    const catalogue = new ModelCatalogue(BUILT_IN_MODELS, { local: { tools: localTools } });
    expect(catalogue.byId('local-edit', 'edit')).toMatchObject({
      model: { id: 'local-edit' },
      provider: localTools,
    });
    expect(catalogue.byId('local-edit', 'upscale')).toBeUndefined();
    expect(catalogue.byId('fal-flux-edit', 'edit')).toBeUndefined();
    expect(catalogue.find('fal-flux-edit')).toMatchObject({ capability: 'edit', available: false });
  });
});

describe('ModelCatalogue: personal models', () => {
  const mine: PersonalModel = {
    ...(BUILT_IN_MODELS.find((m) => m.id === 'local-aurora') as TextToImageModel),
    id: 'ada-portrait-style',
    displayName: 'My portrait style',
    ownerId: 'ada',
    personal: { triggerWord: 'ohwx', coverUrl: null, weightsKey: 'models/ada/x/style-profile.json' },
  };
  // As the routes do: each caller passes the models they own.
  const as = (userId: string): Viewer => ({ userId, own: userId === 'ada' ? [mine] : [] });
  const catalogue = new ModelCatalogue(BUILT_IN_MODELS, { local: { textToImage: local } });

  it('shows and runs a person’s own model for that person only', () => {
    expect(catalogue.list('text-to-image', as('ada')).map((m) => m.id)).toContain('ada-portrait-style');
    expect(catalogue.get('text-to-image', 'ada-portrait-style', as('ada')).model.id).toBe(
      'ada-portrait-style',
    );
    expect(catalogue.byId('ada-portrait-style', 'text-to-image', as('ada'))?.provider).toBe(local);
    expect(catalogue.list('text-to-image').map((m) => m.id)).not.toContain('ada-portrait-style');
    expect(catalogue.list('text-to-image', as('bob')).map((m) => m.id)).not.toContain('ada-portrait-style');
  });

  it('answers anyone else exactly as for an id that does not exist', () => {
    const foreign = thrown(() => catalogue.get('text-to-image', 'ada-portrait-style', as('bob')));
    const missing = thrown(() => catalogue.get('text-to-image', 'no-such-model', as('bob')));
    expect(foreign.userMessage).toBe(missing.userMessage.replace('no-such-model', 'ada-portrait-style'));
    expect([foreign.code, foreign.status]).toEqual([missing.code, missing.status]);
    expect(thrown(() => catalogue.get('text-to-image', 'ada-portrait-style')).userMessage).toBe(
      'Unknown model "ada-portrait-style". Choose one of: local-aurora, local-prism.',
    );
    expect(catalogue.find('ada-portrait-style', as('bob'))).toBeUndefined();
    expect(catalogue.byId('ada-portrait-style', 'text-to-image', as('bob'))).toBeUndefined();
  });

  it('never lets a caller hand one person another person’s model, nor makes it anyone’s default', () => {
    const leaky: Viewer = { userId: 'bob', own: [mine] };
    expect(catalogue.list('text-to-image', leaky).map((m) => m.id)).not.toContain('ada-portrait-style');
    expect(catalogue.get('text-to-image', 'ada-portrait-style', as('ada')).model.id).toBe(
      'ada-portrait-style',
    );
    expect(catalogue.defaultModel('text-to-image')?.id).toBe('local-aurora');
    // Even an owned entry among the shared ones is its owner's alone, and never the default.
    const onlyMine = new ModelCatalogue([mine, ...BUILT_IN_MODELS.filter((m) => m.id !== 'local-aurora')], {
      local: { textToImage: local },
    });
    expect(onlyMine.defaultModel('text-to-image')?.id).toBe('local-prism');
    expect(onlyMine.list('text-to-image').map((m) => m.id)).not.toContain('ada-portrait-style');
    expect(onlyMine.find('ada-portrait-style', as('ada'))?.id).toBe('ada-portrait-style');
  });
});
