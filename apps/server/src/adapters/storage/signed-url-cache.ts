import { LRUCache } from 'lru-cache';
import type { Storage, UrlOptions } from './storage.ts';

/** What hands out file URLs; a Storage is one, and so is the cache below. */
export type UrlSigner = Pick<Storage, 'url'>;

/**
 * Reuses a signed URL for `reuseSeconds` instead of signing again. A gallery page signs two URLs
 * per image on every request (HMAC on disk, a SigV4 presign on S3), which showed up as a tenth of the
 * listing's CPU under load; reusing them also gives the browser the same URL for the same
 * thumbnail, so it can serve it from its cache instead of downloading it again.
 *
 * A reused URL has at least `expiresInSeconds - reuseSeconds` left when it is handed out; URLs asked
 * for with a lifetime under twice `reuseSeconds` are never reused, so none arrives nearly expired.
 */
export function cacheSignedUrls(
  storage: UrlSigner,
  options: { reuseSeconds: number; max?: number },
): UrlSigner {
  const cache = new LRUCache<string, string>({
    max: options.max ?? 20_000,
    ttl: options.reuseSeconds * 1000,
  });
  return {
    async url(key: string, opts: UrlOptions) {
      if (opts.expiresInSeconds < 2 * options.reuseSeconds) return storage.url(key, opts);
      // Newline-separated: storage keys cannot contain one.
      const id = `${key}\n${opts.expiresInSeconds}\n${opts.downloadName ?? ''}`;
      const cached = cache.get(id);
      if (cached !== undefined) return cached;
      const url = await storage.url(key, opts);
      cache.set(id, url);
      return url;
    },
  };
}
