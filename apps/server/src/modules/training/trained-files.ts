import type { Storage } from '../../adapters/storage/storage.ts';

/** Where a trained model's files live in our storage: its weights (or style profile) and its cover. */
export const modelPrefix = (userId: string, modelId: string) => `models/${userId}/${modelId}/`;

/** A vendor's file name made safe as the last part of a storage key. */
export const safeFileName = (name: string) =>
  name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '') || 'weights';

/** How long a cover URL in an answer lasts (listings are fetched again long before). */
const COVER_URL_SECONDS = 60 * 60;

/** A short-lived URL of a model's cover, or null when it has none or it cannot be signed now. */
export async function coverUrl(storage: Storage, key: string | null): Promise<string | null> {
  return key ? storage.url(key, { expiresInSeconds: COVER_URL_SECONDS }).catch(() => null) : null;
}
