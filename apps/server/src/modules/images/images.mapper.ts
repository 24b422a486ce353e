import { ToolRecipe, type ImageView } from '@lumina/contracts';
import type { UrlSigner } from '../../adapters/storage/signed-url-cache.ts';
import type { ImageWithFavorite } from './images.repository.ts';

/** Image URLs are signed and short-lived: private files are never reachable by a guessable address. */
export const IMAGE_URL_TTL_SECONDS = 60 * 60;
/** How long the gallery hands out the same signed URL again (see cacheSignedUrls). */
export const IMAGE_URL_REUSE_SECONDS = 5 * 60;

export async function toImageView(
  urls: UrlSigner,
  row: ImageWithFavorite,
  viewerId?: string,
): Promise<ImageView> {
  const [url, thumbnailUrl] = await Promise.all([
    urls.url(row.storageKey, { expiresInSeconds: IMAGE_URL_TTL_SECONDS }),
    urls.url(row.thumbnailKey, { expiresInSeconds: IMAGE_URL_TTL_SECONDS }),
  ]);
  return {
    id: row.id,
    url,
    thumbnail_url: thumbnailUrl,
    width: row.width,
    height: row.height,
    content_type: row.contentType,
    prompt: row.prompt,
    negative_prompt: row.negativePrompt,
    model: row.modelId,
    provider: row.provider,
    seed: row.seed,
    lora_scale: row.loraScale,
    prompt_strength: row.promptStrength,
    duration_ms: row.durationMs,
    kind: row.kind,
    // Parsed so a recipe written by an older version can never break the listing: unreadable → null.
    recipe: row.recipe ? (ToolRecipe.safeParse(row.recipe).data ?? null) : null,
    is_saved: row.isSaved,
    is_favorite: row.isFavorite,
    is_example: row.isExample,
    category: row.category,
    is_own: viewerId !== undefined && row.userId === viewerId,
    download_count: row.downloadCount,
    created_at: row.createdAt.toISOString(),
  };
}

export function toDownloadCountView(count: number) {
  return { download_count: count };
}
