import { contracts } from '@lumina/contracts';
import type { FastifyInstance } from 'fastify';
import {
  contentDisposition,
  StorageKeyError,
  StorageNotFoundError,
  verifyFileSignature,
  type Storage,
} from '../../adapters/storage/index.ts';
import { AppError } from '../../errors.ts';
import { route } from '../../http/route.ts';

/**
 * Serves local-disk files behind signed, expiring URLs (what `DiskStorage.url()` hands out). A wrong,
 * expired or tampered signature is a 404 like a missing file, so URLs reveal nothing about what exists.
 */
export function fileRoutes(app: FastifyInstance, deps: { storage: Storage; secret: string }): void {
  route(app, contracts.signedFile, async (request, reply) => {
    const key = request.params['*'];
    const { expires, signature, download } = request.query;
    const gone = new AppError('NOT_FOUND', 'This file link is invalid or has expired.');
    if (!verifyFileSignature(key, expires, signature, deps.secret, new Date(), download)) throw gone;
    try {
      const file = await deps.storage.get(key);
      reply
        .header('content-type', file.contentType ?? 'application/octet-stream')
        .header('content-length', file.size)
        // The URL itself expires; browsers may keep the bytes privately until then.
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff');
      if (download) reply.header('content-disposition', contentDisposition(download));
      return reply.send(file.body);
    } catch (err) {
      if (err instanceof StorageNotFoundError || err instanceof StorageKeyError) throw gone;
      throw err;
    }
  });
}
