import { randomInt } from 'node:crypto';
import { creditsFor, SEED_MAX, type Tool } from '@lumina/contracts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { AppError } from '../../errors.ts';
import type { JobsService } from '../jobs/jobs.service.ts';
import type { ModelCatalogue } from '../models/model-catalogue.ts';
import type { IncomingFile } from '../uploads/multipart.ts';
import type { ToolRun } from './tool-definition.ts';
import type { ToolJobInput } from './tool-recipe.ts';
import { toToolInfo } from './tools.mapper.ts';
import { ownedImageSizes } from './tools.repository.ts';

/** The upload pipeline, as the tools use it (modules/uploads): check and store, then commit or discard. */
export interface UploadStore<P extends { id: string }> {
  prepare(userId: string, file: IncomingFile, field: string): Promise<P>;
  insert(tx: DbOrTx, userId: string, prepared: P[]): Promise<void>;
  discard(prepared: P[]): Promise<void>;
}

/**
 * Starts image-tool jobs. Everything a person can get wrong is checked before anything is written;
 * then the uploads are stored, and the upload rows, the charge, the job and its queue entry commit in
 * one transaction — so a refusal (bad file, someone else's image, too few credits) leaves no credits
 * spent and no files or rows behind.
 */
export class ToolsService<P extends { id: string }> {
  constructor(
    private readonly deps: {
      db: Database;
      /** Starts the job: charge, row and queue entry in one transaction. */
      jobs: Pick<JobsService, 'enqueue'>;
      registry: ModelCatalogue;
      uploads: UploadStore<P>;
    },
  ) {}

  async start(userId: string, run: ToolRun) {
    const { jobs, registry, uploads } = this.deps;
    const { model } = registry.get(run.tool, run.model);
    const owned = await this.ownedImages(
      userId,
      run.sources.flatMap((s) => ('imageId' in s ? [s.imageId] : [])),
    );
    run.check?.(owned);

    const prepared: P[] = [];
    try {
      for (const source of run.sources) {
        if ('file' in source) prepared.push(await uploads.prepare(userId, source.file, source.field));
      }
    } catch (err) {
      await uploads.discard(prepared).catch(() => undefined);
      throw err;
    }

    let next = 0;
    const sourceImageIds = run.sources.map((s) => ('imageId' in s ? s.imageId : prepared[next++]!.id));
    const input: ToolJobInput = {
      tool: run.tool,
      sourceImageIds,
      // Chosen now, not by the provider, so every result can be reproduced.
      seed: run.seed ?? randomInt(0, SEED_MAX + 1),
      ...run.settings,
    };
    const cost = creditsFor({
      capability: run.tool,
      creditCost: model.creditCost,
      factor: input.factor ?? undefined,
      durationSeconds: input.durationSeconds ?? undefined,
    });
    try {
      const started = await jobs.enqueue(
        {
          userId,
          kind: run.tool,
          modelId: model.id,
          provider: model.provider,
          providerModel: model.providerModel,
          input: { ...input },
          numImages: 1,
          cost,
          reason: run.tool,
        },
        (tx) => uploads.insert(tx, userId, prepared),
      );
      return { ...started, model };
    } catch (err) {
      await uploads.discard(prepared).catch(() => undefined);
      throw err;
    }
  }

  /** Every id must be one of the person's own images; another person's answers exactly like a missing one. */
  private async ownedImages(userId: string, ids: string[]) {
    const rows = await ownedImageSizes(this.deps.db, userId, ids);
    const missing = ids.find((id) => !rows.some((r) => r.id === id));
    if (missing) throw new AppError('NOT_FOUND', `The image ${missing} was not found in your gallery.`);
    return rows;
  }

  /** The tools, their models and the pricing, for GET /api/tools. */
  catalogue(tools: readonly Tool[]) {
    return tools.map((tool) => toToolInfo(tool, this.deps.registry));
  }
}
