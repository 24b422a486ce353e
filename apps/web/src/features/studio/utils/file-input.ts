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
export function previewMode(file: FileLike): 'browser' | 'convert' {
  const type = imageType(file);
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
