import { Readable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import type { Storage } from '../../adapters/storage/storage.ts';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

/** `headshots-2026-11-24.zip`: what the download is saved as. */
export function zipFilename(productId: string, date: Date): string {
  return `${productId}-${date.toISOString().slice(0, 10)}.zip`;
}

/**
 * The delivered images as one zip, streamed: each image is read from storage only when the previous
 * one has been written, so a 100-image set never sits in memory at once. Images are stored without
 * recompression (they are compressed already).
 */
export function purchaseZip(
  storage: Pick<Storage, 'get'>,
  productId: string,
  images: ReadonlyArray<{ storageKey: string; contentType: string }>,
): Readable {
  async function* entries(): AsyncGenerator<Uint8Array> {
    const out: Uint8Array[] = [];
    let failure: Error | null = null;
    const zip = new Zip((err, data) => {
      if (err) failure = err;
      else out.push(data);
    });
    const drain = function* () {
      if (failure) throw failure;
      while (out.length > 0) yield out.shift()!;
    };
    const digits = String(images.length).length;
    for (const [i, image] of images.entries()) {
      const name = `${productId}-${String(i + 1).padStart(digits, '0')}.${EXTENSIONS[image.contentType] ?? 'bin'}`;
      const entry = new ZipPassThrough(name);
      zip.add(entry);
      const file = await storage.get(image.storageKey);
      for await (const chunk of file.body as AsyncIterable<Buffer>) {
        entry.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        yield* drain();
      }
      entry.push(new Uint8Array(0), true);
      yield* drain();
    }
    zip.end();
    yield* drain();
  }
  return Readable.from(entries());
}
