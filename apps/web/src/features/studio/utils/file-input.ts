/**
 * What the studio's image inputs accept, and how each file is previewed. The server sniffs the real type
 * from the bytes; these checks only spare people an upload that is sure to be refused.
 */

/** Types the browser shows itself in an <img>. */
const BROWSER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
/** Types the server reads but browsers mostly cannot show: previewed through POST /api/images/convert-preview. */
const CONVERTED_TYPES = new Set([
  'image/heic',
  'image/heif',
  'image/heic-sequence',
  'image/heif-sequence',
  'image/avif',
  'image/tiff',
]);
const EXTENSIONS: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  hif: 'image/heif',
  avif: 'image/avif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
};

/** The `accept` attribute of the file pickers. */
export const ACCEPTED_FILES = [
  ...BROWSER_TYPES,
  ...CONVERTED_TYPES,
  ...Object.keys(EXTENSIONS).map((e) => `.${e}`),
].join(',');

/** Above this a PNG is previewed through the server (a smaller JPEG) rather than decoded whole by the page. */
export const LARGE_PNG_BYTES = 15 * 1024 * 1024;

type FileLike = Pick<File, 'name' | 'type' | 'size'>;

/** The file's image type: its declared type when it is one we know, else guessed from the name (phones often send HEIC with none). */
export function imageType(file: FileLike): string | null {
  const declared = file.type.toLowerCase();
  if (BROWSER_TYPES.has(declared) || CONVERTED_TYPES.has(declared)) return declared;
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  const guessed = EXTENSIONS[extension];
  if (
    guessed &&
    (declared === '' || declared === 'application/octet-stream' || declared.startsWith('image/'))
  )
    return guessed;
  return null;
}

export type FileProblem =
  { kind: 'empty' } | { kind: 'notImage' } | { kind: 'tooLarge'; size: number; limit: number };

/** Why a picked file cannot be used, or null when it can be sent. */
export function checkFile(file: FileLike, maxBytes: number): FileProblem | null {
  if (file.size === 0) return { kind: 'empty' };
  if (!imageType(file)) return { kind: 'notImage' };
  if (file.size > maxBytes) return { kind: 'tooLarge', size: file.size, limit: maxBytes };
  return null;
}

/** 'browser': show the file itself; 'convert': ask the server for a JPEG preview first. */
export function previewMode(file: FileLike, sniffed?: string | null): 'browser' | 'convert' {
  const type = sniffed ?? imageType(file);
  if (!type || !BROWSER_TYPES.has(type)) return 'convert';
  if (type === 'image/png' && file.size > LARGE_PNG_BYTES) return 'convert';
  return 'browser';
}

/** A size people read: 512 B, 34 KB, 4.2 MB (1024-based, as upload limits are). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1).replace(/\.0$/, '') : Math.round(mb)} MB`;
}

// ---- what the bytes say ----------------------------------------------------------------------------

/** How many leading bytes the checks below read (enough for every signature and an ISO-BMFF ftyp box). */
export const SNIFF_BYTES = 64;

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
const GENERIC_BRANDS = new Set(['mif1', 'msf1', 'miaf']);

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));
const startsWith = (bytes: Uint8Array, ...signature: number[]) =>
  bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);

/**
 * The image type from the file's first bytes (magic numbers), or null when they are not one of the
 * types the server accepts. The same rules as the server's check (apps/server modules/uploads/sniff.ts),
 * so a file refused here would be refused there, but without sending it.
 */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (startsWith(bytes, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return 'image/webp';
  if (bytes.length >= 6 && ['GIF87a', 'GIF89a'].includes(ascii(bytes, 0, 6))) return 'image/gif';
  if (
    startsWith(bytes, 0x49, 0x49, 0x2a, 0x00) ||
    startsWith(bytes, 0x4d, 0x4d, 0x00, 0x2a) ||
    startsWith(bytes, 0x49, 0x49, 0x2b, 0x00) ||
    startsWith(bytes, 0x4d, 0x4d, 0x00, 0x2b)
  )
    return 'image/tiff';
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return null;
  const boxSize = ((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0;
  if (boxSize < 16 || boxSize > 4096) return null;
  const major = ascii(bytes, 8, 12);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= Math.min(boxSize, bytes.length); at += 4)
    compatible.push(ascii(bytes, at, at + 4));
  if (AVIF_BRANDS.has(major)) return 'image/avif';
  if (HEIF_BRANDS.has(major) && !GENERIC_BRANDS.has(major)) return 'image/heic';
  if (!GENERIC_BRANDS.has(major) && !compatible.some((b) => GENERIC_BRANDS.has(b))) return null;
  if (compatible.some((b) => AVIF_BRANDS.has(b))) return 'image/avif';
  if (compatible.some((b) => HEIF_BRANDS.has(b)) || HEIF_BRANDS.has(major)) return 'image/heic';
  return null;
}

/** Reads a file's first bytes and says what image it is, or null (not an image we accept, or unreadable). */
export async function sniffFile(file: Blob): Promise<string | null> {
  try {
    const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
    return sniffImageType(head);
  } catch {
    return null;
  }
}
