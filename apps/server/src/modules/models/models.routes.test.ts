import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, testDb, type TestEnv } from '../../../test/harness.ts';

/** One MODELS_JSON reaches both lists: GET /api/models (text-to-image) and GET /api/tools (tool models). */
describe(`model catalogue overrides over HTTP on ${testDb}`, { timeout: 60_000 }, () => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await startTestEnv({
      workers: false,
      env: {
        MODELS_JSON: JSON.stringify([
          { id: 'local-prism', creditCost: 2 },
          { id: 'sdxl', remove: true },
          { id: 'local-upscale', creditCost: 3, displayName: 'Lanczos ×2' },
          { id: 'replicate-esrgan', remove: true },
          { id: 'a1111-esrgan', remove: true },
        ]),
      },
    });
  });
  afterAll(() => env.close());

  it('lists the overridden text-to-image models', async () => {
    const models = (await env.app.inject({ method: 'GET', url: '/api/models' })).json().models as Array<{
      id: string;
      credit_cost: number;
      capability: string;
    }>;
    expect(models.find((m) => m.id === 'local-prism')?.credit_cost).toBe(2);
    expect(models.map((m) => m.id)).not.toContain('sdxl');
    // Text-to-image first, then the trainers (no tools: those come with GET /api/tools).
    expect([...new Set(models.map((m) => m.capability))]).toEqual(['text-to-image', 'train']);
  });

  it('lists the overridden tool models', async () => {
    const tools = (await env.app.inject({ method: 'GET', url: '/api/tools' })).json().tools as Array<{
      tool: string;
      default_model: string;
      models: Array<{ id: string; display_name: string; credit_cost: number }>;
    }>;
    const upscale = tools.find((t) => t.tool === 'upscale')!;
    expect(upscale.models.map((m) => m.id)).toEqual(['fal-esrgan', 'comfyui-esrgan', 'local-upscale']);
    expect(upscale.models[2]).toMatchObject({ display_name: 'Lanczos ×2', credit_cost: 3 });
    expect(upscale.default_model).toBe('local-upscale');
  });
});
