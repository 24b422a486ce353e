import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import type { OutputStore } from '../jobs/outputs.ts';
import { trainInputOf } from './train.kind.ts';
import { modelPrefix, safeFileName } from './trained-files.ts';
import { findModel, markReady } from './training.repository.ts';

interface StoredModel {
  modelId: string;
  /** This run's own folder: a run that loses the race to finish deletes its files only. */
  prefix: string;
  weightsKey: string;
  contentType: string;
  generateWith: string;
  coverKey: string | null;
}

/**
 * A training's result: the weights (vendor URLs expire) copied into our storage, with a copy of the
 * cover thumbnail (the set, and its files, may be deleted later); then the model row becomes ready.
 */
export function modelOutput(deps: { db: Database; storage: Storage }): OutputStore<StoredModel> {
  const { db, storage } = deps;

  /** The set's thumbnail copied next to the weights; the set's own key when the copy fails. */
  const copyCover = async (coverKey: string | null, prefix: string) => {
    if (!coverKey || coverKey.startsWith(prefix)) return coverKey;
    try {
      const object = await storage.get(coverKey);
      const key = `${prefix}cover${path.extname(coverKey)}`;
      await storage.put(key, Buffer.concat(await object.body.toArray()), { contentType: object.contentType });
      return key;
    } catch {
      return null;
    }
  };

  return {
    async store(job, result) {
      if (result.kind !== 'model') throw new Error(`job ${job.id} (${job.kind}) returned ${result.kind}`);
      const modelId = trainInputOf(job).trainedModelId;
      // A webhook's sync and the polling worker can both store one training's result; each writes to a
      // folder of its own, so the one that loses the race never deletes the winner's weights.
      const prefix = `${modelPrefix(job.userId, modelId)}${randomUUID()}/`;
      const { weights } = result;
      try {
        const weightsKey = `${prefix}${safeFileName(weights.fileName)}`;
        await storage.put(weightsKey, weights.bytes, { contentType: weights.contentType });
        const row = await findModel(db, modelId);
        return {
          modelId,
          prefix,
          weightsKey,
          contentType: weights.contentType,
          generateWith: weights.generateWith,
          coverKey: await copyCover(row?.coverKey ?? null, prefix),
        };
      } catch (err) {
        await storage.deletePrefix(prefix).catch(() => undefined);
        throw err;
      }
    },
    async insert(tx, _job, stored, { durationMs }) {
      await markReady(tx, stored.modelId, {
        weightsKey: stored.weightsKey,
        weightsContentType: stored.contentType,
        providerModel: stored.generateWith,
        durationMs,
        coverKey: stored.coverKey,
      });
    },
    discard: async (stored) => {
      await storage.deletePrefix(stored.prefix);
    },
    summary: (stored) => ({ model: stored.modelId }),
  };
}
