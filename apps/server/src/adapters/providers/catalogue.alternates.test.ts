import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { CatalogueError, loadCatalogue } from './catalogue.ts';

/** Alternates (failover) in the catalogue: validated at boot like every other field. */
describe('model alternates', () => {
  it('keeps an alternate on another vendor, and a model without any has none', () => {
    const models = loadCatalogue({
      json: JSON.stringify([
        {
          id: 'flux-dev',
          alternates: [{ provider: 'replicate', providerModel: 'black-forest-labs/flux-dev' }],
        },
      ]),
    });
    expect(models.find((m) => m.id === 'flux-dev')!.alternates).toEqual([
      { provider: 'replicate', providerModel: 'black-forest-labs/flux-dev' },
    ]);
    expect(models.find((m) => m.id === 'flux-schnell')!.alternates).toEqual([]);
  });

  it.each([
    [
      [{ id: 'flux-dev', alternates: [{ provider: 'fal', providerModel: 'fal-ai/flux/dev' }] }],
      /models\[0\] \("flux-dev"\)\.alternates\.0\.provider: fal is already this model's vendor or an earlier alternate/,
    ],
    [
      [
        {
          id: 'flux-dev',
          alternates: [
            { provider: 'replicate', providerModel: 'a/b' },
            { provider: 'replicate', providerModel: 'c/d' },
          ],
        },
      ],
      /alternates\.1\.provider: replicate is already/,
    ],
    [
      [{ id: 'flux-dev', alternates: [{ provider: 'midjourney', providerModel: 'x' }] }],
      /alternates\.0\.provider: alternates' provider must be one of local, fal/,
    ],
    [
      [{ id: 'flux-dev', alternates: [{ provider: 'local', providerModel: 'local/nope' }] }],
      /alternates\.0\.providerModel: a local alternate is one of local\/aurora/,
    ],
    [
      [{ id: 'fal-esrgan', alternates: [{ provider: 'local', providerModel: 'local/edit' }] }],
      /a local alternate is one of local\/upscale/,
    ],
    [
      [{ id: 'flux-lora-fast', alternates: [{ provider: 'replicate', providerModel: 'x/y' }] }],
      /alternates: a trainer has no alternates/,
    ],
    [[{ id: 'flux-dev', alternates: [{ provider: 'replicate' }] }], /alternates\.0\.providerModel/],
    // A vendor that cannot do the work is refused at start-up, as a model's vendor or an alternate.
    [
      [{ id: 'fal-kling', alternates: [{ provider: 'a1111', providerModel: 'x' }] }],
      /alternates\.0\.provider: AUTOMATIC1111 cannot run animate \(it runs text-to-image, edit, upscale\)/,
    ],
    [
      [{ id: 'fal-esrgan', alternates: [{ provider: 'openai', providerModel: 'gpt-image-1' }] }],
      /alternates\.0\.provider: OpenAI cannot run upscale \(it runs text-to-image, edit\)/,
    ],
    [
      [{ id: 'fal-kontext-product', provider: 'comfyui', providerModel: 'x' }],
      /provider: ComfyUI cannot run product_holding/,
    ],
    [[{ id: 'flux-lora-fast', provider: 'openai' }], /provider: OpenAI cannot run train/],
  ])('rejects %j with a readable message', (json, message) => {
    expect(() => loadCatalogue({ json: JSON.stringify(json) })).toThrow(CatalogueError);
    expect(() => loadCatalogue({ json: JSON.stringify(json) })).toThrow(message);
  });

  it('stops start-up naming MODELS_JSON and the breaker settings are bounded', () => {
    expect(() =>
      loadConfig({
        MODELS_JSON: '[{"id":"flux-dev","alternates":[{"provider":"fal","providerModel":"x"}]}]',
      }),
    ).toThrow(/MODELS_JSON: models\[0\] \("flux-dev"\)\.alternates/);
    expect(() => loadConfig({ VENDOR_BREAKER_FAILURES: '0' })).toThrow(/VENDOR_BREAKER_FAILURES/);
    const config = loadConfig({});
    expect(config.providers.breaker).toEqual({ failures: 5, cooldownSeconds: 60 });
  });
});
