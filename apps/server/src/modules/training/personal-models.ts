import { parseStyleProfile, type StyleProfileSource } from '../../adapters/providers/local/style-profile.ts';
import type { Storage } from '../../adapters/storage/storage.ts';
import type { Database } from '../../db/client.ts';
import type { TrainedModelRow } from '../../db/schema/index.ts';
import { isPersonalModelId, type ModelCatalogue, type PersonalModel } from '../models/model-catalogue.ts';
import { coverUrl } from './trained-files.ts';
import { findModel, readyUserModels } from './training.repository.ts';

/**
 * How long a hosted vendor may fetch the weights a job sends it: jobs wait in queues and retry, so a
 * week (S3's longest presigned URL).
 */
const WEIGHTS_URL_SECONDS = 7 * 24 * 60 * 60;

/**
 * A person's ready trained models as catalogue entries (their base model's sizes, ratios and price
 * per image), read per request: the catalogue itself holds only the shared models.
 */
export class PersonalModels {
  constructor(
    private readonly deps: {
      db: Database;
      storage: Storage;
      catalogue: Pick<ModelCatalogue, 'sharedTextToImage'>;
      /** Absolute base for our own file URLs (disk storage signs relative ones). */
      publicUrl: string;
    },
  ) {}

  async forUser(userId: string): Promise<PersonalModel[]> {
    const rows = await readyUserModels(this.deps.db, userId);
    const models = await Promise.all(rows.map((row) => this.entry(row)));
    return models.filter((m) => m !== undefined);
  }

  /** A URL a hosted vendor can fetch the model's weights from while the job runs. */
  async weightsUrl(model: PersonalModel): Promise<string> {
    const url = await this.deps.storage.url(model.personal.weightsKey, {
      expiresInSeconds: WEIGHTS_URL_SECONDS,
    });
    return new URL(url, this.deps.publicUrl).toString();
  }

  private async entry(row: TrainedModelRow): Promise<PersonalModel | undefined> {
    // A base model the operator has since removed leaves nothing to generate with.
    const base = this.deps.catalogue.sharedTextToImage(row.baseModelId);
    if (!base || !row.weightsKey) return undefined;
    return {
      ...base,
      id: row.id,
      displayName: row.name,
      description: `Your model, trained on ${row.imageCount} photos with ${base.displayName} as its base.`,
      provider: row.provider as PersonalModel['provider'],
      providerModel: row.providerModel ?? base.providerModel,
      supports: { ...base.supports, loraScale: true },
      acceptsLora: false,
      ownerId: row.userId,
      personal: {
        triggerWord: row.triggerWord,
        coverUrl: await coverUrl(this.deps.storage, row.coverKey),
        weightsKey: row.weightsKey,
      },
    };
  }
}

/** The local engine's trained styles: a ready local model's stored profile, by model id. */
export function trainedStyles(deps: { db: Database; storage: Storage }): StyleProfileSource {
  return {
    async get(id) {
      // Not a model id at all (the engine passes whatever followed `local-style:`).
      if (!isPersonalModelId(id)) return undefined;
      const row = await findModel(deps.db, id);
      if (row?.status !== 'ready' || row.provider !== 'local' || !row.weightsKey) return undefined;
      try {
        const object = await deps.storage.get(row.weightsKey);
        return parseStyleProfile(Buffer.concat(await object.body.toArray()));
      } catch {
        return undefined;
      }
    },
  };
}
