import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';

/**
 * What the fake trainers (fal, Replicate) read and serve: the names in an uploaded training zip, and
 * small but well-formed weights files, distinct per training so a test can tell whose bytes it got.
 */

/** The entry names of a zip (directories left out), or undefined when the bytes are not a zip. */
export function zipEntryNames(bytes: Buffer | undefined): string[] | undefined {
  if (!bytes) return undefined;
  try {
    return Object.keys(unzipSync(new Uint8Array(bytes))).filter((name) => !name.endsWith('/'));
  } catch {
    return undefined;
  }
}

const cache = new Map<string, Buffer>();

/**
 * A one-tensor `.safetensors` file (8-byte little-endian header length, JSON header, data) whose data
 * derives from `id`; `tar` wraps it as `lora.safetensors` in a ustar archive, as Replicate's trainer
 * serves `trained_model.tar`.
 */
export function fakeWeights(format: 'safetensors' | 'tar', id: string): Buffer {
  const key = `${format}:${id}`;
  let bytes = cache.get(key);
  if (!bytes) {
    bytes = format === 'tar' ? tarOf('lora.safetensors', safetensors(id)) : safetensors(id);
    cache.set(key, bytes);
  }
  return bytes;
}

function safetensors(id: string): Buffer {
  const data = createHash('sha256').update(id).digest();
  const header = Buffer.from(
    JSON.stringify({
      __metadata__: { format: 'pt', training: id },
      'transformer.lora_A.weight': { dtype: 'F32', shape: [8], data_offsets: [0, data.length] },
    }),
  );
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, data]);
}

/** A ustar archive of one file: a 512-byte header, the data padded to 512, two zero blocks. */
function tarOf(name: string, data: Buffer): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 100, 'utf8');
  header.write('0000644\0', 100, 'ascii');
  header.write('0000000\0', 108, 'ascii');
  header.write('0000000\0', 116, 'ascii');
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  header.write(
    `${Math.floor(Date.UTC(2026, 0, 1) / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
    'ascii',
  );
  header.write('        ', 148, 'ascii');
  header.write('0', 156, 'ascii');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  header.write(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding, Buffer.alloc(1024)]);
}
