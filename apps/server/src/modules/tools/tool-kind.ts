import type { InputImage } from '../../adapters/providers/image-tools.ts';
import { ADAPTER_TOOLS } from '../../adapters/providers/tools/index.ts';
import { ProviderError } from '../../adapters/providers/text-to-image.ts';
import type { Storage } from '../../adapters/storage/index.ts';
import type { Database } from '../../db/client.ts';
import type { JobRow } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { JobKind } from '../jobs/kinds.ts';
import type { JobModels } from '../jobs/models.ts';
import type { ServerTool } from './tool-definition.ts';
import { ToolJobInput, wireRecipe } from './tool-recipe.ts';
import { imagesByIds } from './tools.repository.ts';

const inputOf = (job: JobRow) => job.input as unknown as ToolJobInput;

/**
 * A tool as a job kind: the adapter of the model recorded on the job, and the provider request the
 * tool builds from the stored recipe and the source images read back from storage.
 */
export function toolKind(
  tool: ServerTool,
  deps: { db: Database; storage: Storage; models: JobModels },
): JobKind {
  const { db, storage, models } = deps;

  const loadSources = async (ids: string[]): Promise<InputImage[]> => {
    const rows = await imagesByIds(db, ids);
    return Promise.all(
      ids.map(async (id) => {
        const row = rows.find((r) => r.id === id);
        if (!row) {
          throw new ProviderError(
            `source image ${id} is gone`,
            'rejected',
            'A source image was deleted before the job could start.',
          );
        }
        const object = await storage.get(row.storageKey);
        return {
          bytes: Buffer.concat(await object.body.toArray()),
          contentType: row.contentType,
          width: row.width,
          height: row.height,
        };
      }),
    );
  };

  return {
    kind: tool.tool,
    input: ToolJobInput,
    // What a tool makes is said once, by its adapter-layer definition (which types the vendor result).
    output: ADAPTER_TOOLS[tool.tool].output,
    async call(job) {
      models.tool(job.modelId, tool.tool);
      // The vendor recorded on the job runs it: the model's own, or the alternate it moved to.
      const adapter = models.toolAdapter(job.provider, tool.tool);
      if (!adapter) {
        throw new AppError(
          'VALIDATION_FAILED',
          'This tool model’s service is no longer available on this server.',
        );
      }
      const input = inputOf(job);
      const sources = await loadSources(input.sourceImageIds);
      const request = tool.request(input, sources, { providerModel: job.providerModel, seed: input.seed });
      return {
        run: (ctx) => adapter.run(request, ctx),
        cancel: (requestId) => adapter.cancel(requestId, job.providerModel),
      };
    },
    routes: (job) => models.routes(job.modelId, tool.tool),
    async cancel(job, requestId) {
      const adapter = models.toolAdapter(job.provider, tool.tool);
      return adapter ? adapter.cancel(requestId, job.providerModel) : false;
    },
    describe(job) {
      const input = inputOf(job);
      return {
        prompt: input.prompt ?? input.description,
        negativePrompt: input.negativePrompt,
        loraScale: null,
        promptStrength: input.strength,
        recipe: wireRecipe(input) as Record<string, unknown>,
        sourceImageId: input.sourceImageIds[0] ?? null,
      };
    },
  };
}
