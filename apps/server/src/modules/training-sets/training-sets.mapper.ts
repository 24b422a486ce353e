import type { TrainingPhoto, TrainingSetView, TrainingUploadResult } from '@lumina/contracts';
import type { UrlSigner } from '../../adapters/storage/signed-url-cache.ts';
import type { TrainingImageRow, TrainingSetRow } from '../../db/schema/index.ts';
import { IMAGE_URL_TTL_SECONDS } from '../images/images.mapper.ts';
import type { UploadOutcome } from './training-sets.service.ts';

async function toPhotoView(urls: UrlSigner, row: TrainingImageRow): Promise<TrainingPhoto> {
  const [url, thumbnailUrl] = await Promise.all([
    urls.url(row.storageKey, { expiresInSeconds: IMAGE_URL_TTL_SECONDS }),
    urls.url(row.thumbnailKey, { expiresInSeconds: IMAGE_URL_TTL_SECONDS }),
  ]);
  return {
    id: row.id,
    filename: row.filename,
    url,
    thumbnail_url: thumbnailUrl,
    width: row.width,
    height: row.height,
    hints: row.hints,
  };
}

/** A set with short-lived signed URLs; each photo with the hints measured when it was uploaded. */
export async function toTrainingSetView(
  urls: UrlSigner,
  set: TrainingSetRow,
  photos: TrainingImageRow[],
): Promise<TrainingSetView> {
  return {
    id: set.id,
    photos: await Promise.all(photos.map((p) => toPhotoView(urls, p))),
    created_at: set.createdAt.toISOString(),
    updated_at: set.updatedAt.toISOString(),
  };
}

export async function toUploadResultView(
  urls: UrlSigner,
  outcome: UploadOutcome,
): Promise<TrainingUploadResult> {
  return {
    ...(await toTrainingSetView(urls, outcome.set, outcome.photos)),
    refused: outcome.refused,
  };
}
