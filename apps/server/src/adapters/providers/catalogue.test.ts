import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';
import {
  BUILT_IN_MODELS,
  CAPABILITIES,
  CatalogueError,
  loadCatalogue,
  sizeFor,
  sizeProblem,
  type TextToImageModel,
} from './catalogue.ts';

const textToImage = BUILT_IN_MODELS.filter((m): m is TextToImageModel => m.capability === 'text-to-image');

describe('model catalogue', () => {
  it('has offline local models first, and real vendor model ids', () => {
    const ids = BUILT_IN_MODELS.map((m) => m.id);
    expect(ids.slice(0, 2)).toEqual(['local-aurora', 'local-prism']);
    expect(new Set(ids).size).toBe(ids.length);
    // Every capability has models, and a local one that works offline (ids are unique across all).
    for (const capability of CAPABILITIES) {
      expect(BUILT_IN_MODELS.some((m) => m.capability === capability && m.provider === 'local')).toBe(true);
    }
    const byId = Object.fromEntries(BUILT_IN_MODELS.map((m) => [m.id, m]));
    expect(byId['flux-dev']?.providerModel).toBe('fal-ai/flux/dev');
    expect(byId['flux-schnell']?.providerModel).toBe('fal-ai/flux/schnell');
    expect(byId['flux-lora']).toMatchObject({ providerModel: 'fal-ai/flux-lora', acceptsLora: true });
    expect(byId['flux-schnell-replicate']?.providerModel).toBe('black-forest-labs/flux-schnell');
    expect(byId['sdxl']?.providerModel).toMatch(/^stability-ai\/sdxl:[0-9a-f]{64}$/);
    for (const m of textToImage.filter((x) => x.provider === 'local')) {
      expect(m.displayName + m.description).toMatch(/local procedural engine/i);
    }
  });

  it('returns the built-in list when nothing overrides it', () => {
    expect(loadCatalogue()).toEqual(BUILT_IN_MODELS);
  });

  it('merges, removes and adds models from MODELS_JSON', () => {
    const models = loadCatalogue({
      json: JSON.stringify([
        { id: 'flux-dev', creditCost: 9, supports: { maxImages: 2 } },
        { id: 'sdxl', remove: true },
        { ...textToImage[0], id: 'local-aurora-hd', displayName: 'Aurora HD', creditCost: 2 },
      ]),
    });
    const byId = Object.fromEntries(models.map((m) => [m.id, m]));
    expect(byId['flux-dev']).toMatchObject({ creditCost: 9, supports: { maxImages: 2, seed: true } });
    expect(byId['sdxl']).toBeUndefined();
    expect(byId['local-aurora-hd']).toMatchObject({ provider: 'local', creditCost: 2 });
  });

  it('replaces the models of the capabilities a {"replace":true} list names, and keeps the others', () => {
    const models = loadCatalogue({ json: JSON.stringify({ replace: true, models: [textToImage[1]] }) });
    expect(models.filter((m) => m.capability === 'text-to-image').map((m) => m.id)).toEqual(['local-prism']);
    expect(models.filter((m) => m.capability !== 'text-to-image' && m.capability !== 'train')).toEqual(
      BUILT_IN_MODELS.filter((m) => m.capability !== 'text-to-image' && m.capability !== 'train'),
    );
    // The trainers extended models the list replaced: they go with them.
    expect(models.filter((m) => m.capability === 'train')).toEqual([]);
    const edits = loadCatalogue({
      json: JSON.stringify({
        replace: true,
        models: [
          {
            id: 'local-edit',
            capability: 'edit',
            displayName: 'Edit',
            provider: 'local',
            providerModel: 'local/edit',
            creditCost: 3,
          },
        ],
      }),
    });
    expect(edits.filter((m) => m.capability === 'edit').map((m) => m.id)).toEqual(['local-edit']);
    expect(edits.filter((m) => m.capability === 'text-to-image')).toEqual(textToImage);
  });

  it('covers tool models: merges, removes and adds them with the same format', () => {
    const models = loadCatalogue({
      json: JSON.stringify([
        { id: 'fal-esrgan', creditCost: 3 },
        { id: 'replicate-kling', remove: true },
        {
          id: 'fal-clarity',
          capability: 'upscale',
          displayName: 'Clarity upscaler · fal.ai',
          provider: 'fal',
          providerModel: 'fal-ai/clarity-upscaler',
          creditCost: 5,
        },
      ]),
    });
    const byId = Object.fromEntries(models.map((m) => [m.id, m]));
    expect(byId['fal-esrgan']).toMatchObject({ capability: 'upscale', creditCost: 3, provider: 'fal' });
    expect(byId['replicate-kling']).toBeUndefined();
    expect(byId['fal-clarity']).toMatchObject({ capability: 'upscale', description: '', creditCost: 5 });
    // A tool model carries no text-to-image fields, and a text-to-image one keeps them.
    expect(byId['fal-clarity']).not.toHaveProperty('sizes');
    expect(byId['flux-dev']).toMatchObject({ capability: 'text-to-image', supports: { maxImages: 4 } });
  });

  it.each([
    ['not json', /not valid JSON/],
    ['{"a":1}', /must be a JSON array of models/],
    [
      '[{"id":"flux-dev","creditCost":1.5}]',
      /models\[0\] \("flux-dev"\)\.creditCost: creditCost must be a whole number/,
    ],
    ['[{"id":"new-model","displayName":"X"}]', /models\[0\] \("new-model"\)/],
    [
      '[{"id":"local-aurora","providerModel":"local/nope"}]',
      /providerModel: local models are one of local\/aurora/,
    ],
    ['[{"id":"local-aurora","defaultSize":{"width":1001}}]', /defaultSize\.width: must be a multiple of 8/],
    [
      '[{"id":"flux-dev","provider":"midjourney"}]',
      /provider must be one of local, fal, replicate, comfyui, a1111, openai/,
    ],
    ['[{"id":"nope","remove":true}]', /cannot remove unknown model "nope"/],
    ['{"replace":true,"models":[]}', /leaves no models/],
    ['[{"id":"fal-esrgan","creditCost":-2}]', /models\[0\] \("fal-esrgan"\)\.creditCost/],
    [
      '[{"id":"local-edit","providerModel":"local/upscale"}]',
      /providerModel: the local edit model is local\/edit/,
    ],
    [
      '[{"id":"new-tool","capability":"paint","displayName":"X","provider":"fal","providerModel":"x","creditCost":1}]',
      /models\[0\] \("new-tool"\)\.capability: capability must be one of text-to-image, edit/,
    ],
    ['[{"id":"new-tool","capability":"edit","displayName":"X"}]', /models\[0\] \("new-tool"\)\.provider/],
    [
      '[{"id":"local-pan-zoom","remove":true},{"id":"fal-kling","remove":true},{"id":"replicate-kling","remove":true}]',
      /leaves no animate models; keep at least one/,
    ],
    [
      '[{"id":"flux-lora-fast","steps":{"min":500,"max":400,"default":450}}]',
      /models\[0\] \("flux-lora-fast"\)\.steps: needs min ≤ default ≤ max/,
    ],
    [
      '[{"id":"flux-lora-fast","baseModelId":"local-aurora"}]',
      /models\[0\] \("flux-lora-fast"\)\.baseModelId: "local-aurora" is not a fal text-to-image model/,
    ],
    [
      '[{"id":"local-style-trainer","providerModel":"local/aurora"}]',
      /providerModel: the local trainer is local\/style-trainer/,
    ],
  ])('rejects %s with a readable message', (json, message) => {
    expect(() => loadCatalogue({ json })).toThrow(CatalogueError);
    expect(() => loadCatalogue({ json })).toThrow(message);
  });

  it('covers trainers: priced per 1000 steps, each extending a text-to-image model of its vendor', () => {
    const trainers = BUILT_IN_MODELS.filter((m) => m.capability === 'train');
    expect(trainers.map((m) => [m.id, m.provider, m.creditCost])).toEqual([
      ['local-style-trainer', 'local', 10],
      ['flux-lora-fast', 'fal', 80],
      ['flux-dev-lora-replicate', 'replicate', 100],
    ]);
    expect(trainers[2]!.providerModel).toMatch(/^ostris\/flux-dev-lora-trainer:[0-9a-f]{64}$/);
    const models = loadCatalogue({
      json: JSON.stringify([
        { id: 'flux-lora-fast', creditCost: 60, steps: { max: 3000 } },
        {
          id: 'local-style-long',
          capability: 'train',
          displayName: 'Long local style',
          provider: 'local',
          providerModel: 'local/style-trainer',
          baseModelId: 'local-prism',
          steps: { min: 1000, max: 5000, default: 2000 },
          creditCost: 5,
        },
      ]),
    });
    const byId = Object.fromEntries(models.map((m) => [m.id, m]));
    expect(byId['flux-lora-fast']).toMatchObject({
      creditCost: 60,
      steps: { min: 250, max: 3000, default: 1000 },
    });
    expect(byId['local-style-long']).toMatchObject({ capability: 'train', baseModelId: 'local-prism' });
    // An operator may offer no training at all.
    const none = loadCatalogue({
      json: JSON.stringify(trainers.map((m) => ({ id: m.id, remove: true }))),
    });
    expect(none.some((m) => m.capability === 'train')).toBe(false);
  });

  it('stops start-up naming MODELS_JSON or MODELS_FILE', () => {
    const bad = () => loadConfig({ MODELS_JSON: '[{"id":"flux-dev","creditCost":-1}]' });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/MODELS_JSON: models\[0\] \("flux-dev"\)\.creditCost/);
    const badTool = () => loadConfig({ MODELS_JSON: '[{"id":"local-upscale","provider":"midjourney"}]' });
    expect(badTool).toThrow(
      /MODELS_JSON: models\[0\] \("local-upscale"\)\.provider: provider must be one of/,
    );
    expect(() => loadConfig({ MODELS_FILE: '/nonexistent/models.json' })).toThrow(/MODELS_FILE: cannot read/);
  });

  it('loads MODELS_FILE into config.models', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lumina-models-'));
    const file = path.join(dir, 'models.json');
    writeFileSync(
      file,
      JSON.stringify([
        { id: 'flux-schnell', creditCost: 3 },
        { id: 'local-edit', creditCost: 2 },
      ]),
    );
    const config = loadConfig({ MODELS_FILE: file });
    expect(config.models.find((m) => m.id === 'flux-schnell')?.creditCost).toBe(3);
    expect(config.models.find((m) => m.id === 'local-edit')?.creditCost).toBe(2);
    expect(loadConfig({}).models).toEqual(BUILT_IN_MODELS);
  });

  it('maps aspect ratios to sizes on the model grid and checks sizes', () => {
    const aurora = textToImage[0]!;
    expect(sizeFor(aurora, '1:1')).toEqual({ width: 1024, height: 1024 });
    const wide = sizeFor(aurora, '16:9');
    expect(wide.width % 8).toBe(0);
    expect(wide.height % 8).toBe(0);
    expect(wide.width / wide.height).toBeCloseTo(16 / 9, 1);
    expect(sizeProblem(aurora, 1024, 576)).toBeUndefined();
    expect(sizeProblem(aurora, 1020, 576)).toMatch(/multiples of 8 from 256 to 2048/);
    const replicate = textToImage.find((m) => m.id === 'flux-dev-replicate')!;
    expect(sizeProblem(replicate, 1000, 1000)).toMatch(/aspect ratio/);
    expect(sizeProblem(replicate, 1024, 1024)).toBeUndefined();
  });
});
