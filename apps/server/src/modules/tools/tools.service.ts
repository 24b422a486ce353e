import { randomInt } from 'node:crypto';
import { SEED_MAX, type Tool } from '@lumina/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import {
  toolCost,
  type ToolModelEntry,
  type ToolRegistry,
} from '../../adapters/providers/tools-catalogue.ts';
import type { Database, DbOrTx } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { GenerationService } from '../generation/generation.service.ts';
import type { ToolJobInput } from './tool-recipe.ts';

import type { IncomingFile } from '../uploads/multipart.ts';

export type { IncomingFile };

/** One input of a tool: an image the person already has, or a new upload under a form field name. */
export type ToolSource = { imageId: string } | { file: IncomingFile; field: string };

/** The upload pipeline, as the tools use it (modules/uploads): check and store, then commit or discard. */
export interface UploadStore<P extends { id: string }> {
  prepare(userId: string, file: IncomingFile, field: string): Promise<P>;
  insert(tx: DbOrTx, userId: string, prepared: P[]): Promise<void>;
  discard(prepared: P[]): Promise<void>;
}

export interface ToolRun {
  tool: Tool;
  model?: string;
  sources: ToolSource[];
  seed?: number;
  settings: Omit<ToolJobInput, 'tool' | 'sourceImageIds' | 'seed'>;
  /** Checks the chosen existing images (sizes…) before anything is stored or charged; throws AppError. */
  check?: (images: Array<{ id: string; width: number; height: number }>) => void;
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
      jobs: Pick<GenerationService, 'enqueue'>;
      registry: ToolRegistry;
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
    const cost = toolCost(model, {
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
    if (ids.length === 0) return [];
    const rows = await this.deps.db
      .select({ id: images.id, width: images.width, height: images.height })
      .from(images)
      .where(and(eq(images.userId, userId), inArray(images.id, ids)));
    const missing = ids.find((id) => !rows.some((r) => r.id === id));
    if (missing) throw new AppError('NOT_FOUND', `The image ${missing} was not found in your gallery.`);
    return rows;
  }

  /** The tools, their models and the pricing, for GET /api/tools. */
  catalogue(tools: readonly Tool[]) {
    const { registry } = this.deps;
    return tools.map((tool) => ({
      tool,
      default_model: registry.defaultModel(tool)?.id ?? null,
      models: registry.list(tool).map((m) => toolModelInfo(m, m.available, m.unavailableReason)),
    }));
  }
}

export function toolModelInfo(m: ToolModelEntry, available: boolean, reason: string | null) {
  return {
    id: m.id,
    display_name: m.displayName,
    description: m.description,
    provider: m.provider,
    available,
    unavailable_reason: reason,
    credit_cost: m.creditCost,
  };
}
