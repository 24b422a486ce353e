import { ANIMATE_DURATIONS, creditsFor, TOOLS, UPSCALE_FACTORS, type Tool } from '@lumina/contracts';
import { describe, expect, it } from 'vitest';
import type { ImageToolsProvider } from '../../adapters/providers/image-tools.ts';
import { BUILT_IN_MODELS } from '../../adapters/providers/catalogue.ts';
import { ModelCatalogue } from '../models/model-catalogue.ts';
import type { ProviderName } from '../../adapters/providers/text-to-image.ts';
import type { NewPaidJob } from '../jobs/jobs.service.ts';
import { NO_SETTINGS } from './tool-definition.ts';
import { toToolInfo } from './tools.mapper.ts';
import { ToolsService } from './tools.service.ts';

/** Every vendor configured, so every model can be chosen. */
const adapter = (name: ProviderName): ImageToolsProvider => ({
  name,
  available: true,
  run: () => Promise.reject(new Error('not run here')),
  cancel: async () => false,
});

/** Each tool's options that change its price (none: one run at the model's cost). */
const OPTIONS: Record<Tool, Array<{ factor?: 2 | 4; durationSeconds?: number }>> = {
  edit: [{}],
  copy_style: [{}],
  product_holding: [{}],
  upscale: UPSCALE_FACTORS.map((factor) => ({ factor })),
  animate: ANIMATE_DURATIONS.map((durationSeconds) => ({ durationSeconds })),
};

describe('tool prices', () => {
  it('charges what the web shows (creditsFor on GET /api/tools) for every tool, model and option', async () => {
    const registry = new ModelCatalogue(BUILT_IN_MODELS, {
      local: { tools: adapter('local') },
      fal: { tools: adapter('fal') },
      replicate: { tools: adapter('replicate') },
      a1111: { tools: adapter('a1111') },
      openai: { tools: adapter('openai') },
      comfyui: { tools: adapter('comfyui') },
    });
    const charged: NewPaidJob[] = [];
    const tools = new ToolsService<{ id: string }>({
      // Only uploads are used as sources below: nothing is read from the database.
      db: undefined as never,
      jobs: {
        enqueue: async (job) => {
          charged.push(job);
          return { job: { id: 'job' } as never, cost: job.cost, balance: 0 };
        },
      },
      registry,
      uploads: {
        prepare: async () => ({ id: crypto.randomUUID() }),
        insert: async () => undefined,
        discard: async () => undefined,
      },
    });
    const file = { file: { filename: 'a.png', bytes: Buffer.from('') }, field: 'file' };

    let checked = 0;
    for (const tool of TOOLS) {
      for (const shown of toToolInfo(tool, registry).models) {
        for (const option of OPTIONS[tool]) {
          const { cost } = await tools.start('user', {
            tool,
            model: shown.id,
            sources: [file, file],
            settings: {
              ...NO_SETTINGS,
              factor: option.factor ?? null,
              durationSeconds: option.durationSeconds ?? null,
            },
          });
          const price = creditsFor({ capability: tool, creditCost: shown.credit_cost, ...option });
          expect(cost, `${tool} ${shown.id} ${JSON.stringify(option)}`).toBe(price);
          expect(charged.at(-1)!.cost).toBe(price);
          checked++;
        }
      }
    }
    // Every tool model once per option that changes its price.
    expect(checked).toBe(
      BUILT_IN_MODELS.filter((m) => (TOOLS as readonly string[]).includes(m.capability)).reduce(
        (n, m) => n + OPTIONS[m.capability as Tool].length,
        0,
      ),
    );
  });
});
