/**
 * What kind of image a file is, from its first bytes only. The file name and the Content-Type a
 * browser sends are whatever the person's machine guessed (or whatever a client chose to claim), so
 * neither is ever consulted.
 */
export type SniffedType = 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff' | 'heif' | 'avif';

/** HEIF brands (HEVC-coded stills and sequences, and the generic image/sequence brands). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
/** Brands that only say "some HEIF-family image": the compatible brands tell HEIC from AVIF. */
const GENERIC_BRANDS = new Set(['mif1', 'msf1', 'miaf']);

const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);

/** The longest fixed signature below (a minimal ftyp box); an ftyp box may need more, up to MAX_FTYP_BYTES. */
const MIN_SNIFF_BYTES = 16;
const MAX_FTYP_BYTES = 4096;

function startsWith(bytes: Buffer, ...signature: number[]): boolean {
  if (bytes.length < signature.length) return false;
  return signature.every((b, i) => bytes[i] === b);
}

/** ISO-BMFF (`....ftyp<major><minor><compatible…>`): HEIC/HEIF or AVIF by brand. */
function sniffFtyp(bytes: Buffer): SniffedType | undefined {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return undefined;
  const boxSize = bytes.readUInt32BE(0);
  if (boxSize < MIN_SNIFF_BYTES || boxSize > MAX_FTYP_BYTES) return undefined;
  const major = ascii(bytes, 8, 12);
  const compatible: string[] = [];
  for (let at = 16; at + 4 <= Math.min(boxSize, bytes.length); at += 4)
    compatible.push(ascii(bytes, at, at + 4));

  if (AVIF_BRANDS.has(major)) return 'avif';
  if (HEIF_BRANDS.has(major) && !GENERIC_BRANDS.has(major)) return 'heif';
  if (!GENERIC_BRANDS.has(major) && !compatible.some((b) => GENERIC_BRANDS.has(b))) return undefined;
  // A generic major brand (or an unknown one declaring mif1/miaf compatibility): look at the rest.
  if (compatible.some((b) => AVIF_BRANDS.has(b))) return 'avif';
  if (compatible.some((b) => HEIF_BRANDS.has(b)) || HEIF_BRANDS.has(major)) return 'heif';
  return undefined;
}

/** The image type from magic bytes, or undefined when the bytes are not an image type we accept. */
export function sniffImageType(bytes: Buffer): SniffedType | undefined {
  if (startsWith(bytes, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (startsWith(bytes, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'gif';
  // Classic TIFF (42) and BigTIFF (43), little- and big-endian.
  if (startsWith(bytes, 0x49, 0x49, 0x2a, 0x00) || startsWith(bytes, 0x4d, 0x4d, 0x00, 0x2a)) return 'tiff';
  if (startsWith(bytes, 0x49, 0x49, 0x2b, 0x00) || startsWith(bytes, 0x4d, 0x4d, 0x00, 0x2b)) return 'tiff';
  return sniffFtyp(bytes);
}

/**
 * How many first bytes sniffImageType needs to decide, given the first ones: 16, or the whole ftyp
 * box of a HEIF/AVIF file (its compatible brands), so a caller can read no more of a file than that.
 */
export function sniffLength(head: Buffer): number {
  if (head.length >= 8 && ascii(head, 4, 8) === 'ftyp') {
    const boxSize = head.readUInt32BE(0);
    if (boxSize > MIN_SNIFF_BYTES && boxSize <= MAX_FTYP_BYTES) return boxSize;
  }
  return MIN_SNIFF_BYTES;
}
