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
 * One `bytes=` range (what media players send), clamped to the file; undefined for none or for forms
 * we answer with the whole file (several ranges), 'unsatisfiable' for a start past the end.
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Math.min(Number(match[2]), size);
    return suffix === 0 ? 'unsatisfiable' : { start: size - suffix, end: size - 1 };
  }
  const start = Number(match[1]);
  if (start >= size) return 'unsatisfiable';
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return end < start ? undefined : { start, end };
}

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
        // The URL itself expires; browsers may keep the bytes privately until then.
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .header('accept-ranges', 'bytes');
      if (download) reply.header('content-disposition', contentDisposition(download));
      const range = byteRange(request.headers.range, file.size);
      if (range === 'unsatisfiable') {
        file.body.destroy();
        return reply.code(416).header('content-range', `bytes */${file.size}`).send();
      }
      if (range) {
        // Video players seek with ranges. Files here are image- and short-video-sized, so reading
        // the whole object and slicing is simpler than ranged reads in every storage adapter.
        const bytes = Buffer.concat(await file.body.toArray());
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
          .header('content-length', range.end - range.start + 1)
          .send(bytes.subarray(range.start, range.end + 1));
      }
      reply.header('content-length', file.size);
      return reply.send(file.body);
    } catch (err) {
      if (err instanceof StorageNotFoundError || err instanceof StorageKeyError) throw gone;
      throw err;
    }
  });
}
