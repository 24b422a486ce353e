import type { Storage } from '../../adapters/storage/index.ts';
import * as media from '../../adapters/media/media.ts';

/** Where a user's image files live: one folder per user, so deleting an account can drop its prefix. */
export const imageKeys = (userId: string, imageId: string, ext: string) => ({
  original: `users/${userId}/images/${imageId}.${ext}`,
  thumbnail: `users/${userId}/images/${imageId}.thumb.webp`,
});

export interface StoredImageFiles {
  storageKey: string;
  thumbnailKey: string;
  contentType: string;
  width: number;
  height: number;
  bytes: number;
}

const extensionOf: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

/** Stores an output image and its thumbnail. The bytes are sniffed, not trusted from the provider. */
export async function storeImageFiles(
  storage: Storage,
  userId: string,
  imageId: string,
  bytes: Buffer,
): Promise<StoredImageFiles> {
  const [info, thumb] = await Promise.all([media.inspect(bytes), media.thumbnail(bytes)]);
  const keys = imageKeys(userId, imageId, extensionOf[info.contentType] ?? 'bin');
  await Promise.all([
    storage.put(keys.original, bytes, { contentType: info.contentType }),
    storage.put(keys.thumbnail, thumb, { contentType: 'image/webp' }),
  ]);
  return {
    storageKey: keys.original,
    thumbnailKey: keys.thumbnail,
    contentType: info.contentType,
    width: info.width,
    height: info.height,
    bytes: bytes.length,
  };
}

export async function deleteImageFiles(
  storage: Storage,
  files: { storageKey: string; thumbnailKey: string },
) {
  await Promise.all([storage.delete(files.storageKey), storage.delete(files.thumbnailKey)]);
}
