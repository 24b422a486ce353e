/**
 * Removing metadata from a JPEG without decoding it: walk the marker segments, keep what decoding
 * needs (tables, frame and scan headers, the entropy-coded data), an ICC profile and the Adobe colour
 * transform flag, and drop everything else: EXIF (with GPS and its embedded thumbnail), XMP, IPTC,
 * comments, MPF and whatever follows the end-of-image marker (phones append depth and gain maps there).
 * The pixels are the person's bytes, untouched: no generation loss and no decode/encode cost.
 */

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const COM = 0xfe;
const APP0 = 0xe0;
const APP2 = 0xe2;
const APP14 = 0xee;

const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;
const isApp = (marker: number) => marker >= 0xe0 && marker <= 0xef;

function startsWithText(bytes: Buffer, at: number, text: string): boolean {
  return bytes.toString('latin1', at, at + text.length) === text;
}

/**
 * APP0 rebuilt as a bare JFIF header (version, density units) without its optional thumbnail, which
 * could show a picture other than the image itself (an uncropped original). Other APP0s are dropped.
 */
function jfifWithoutThumbnail(bytes: Buffer, payloadAt: number, payloadLength: number): Buffer | undefined {
  if (payloadLength < 14 || !startsWithText(bytes, payloadAt, 'JFIF\0')) return undefined;
  const out = Buffer.alloc(2 + 2 + 14);
  out[0] = 0xff;
  out[1] = APP0;
  out.writeUInt16BE(16, 2);
  bytes.copy(out, 4, payloadAt, payloadAt + 12);
  // Thumbnail width and height: none.
  out[16] = 0;
  out[17] = 0;
  return out;
}

/**
 * The JPEG with only what decoding needs plus an ICC profile, or undefined when the marker structure
 * is broken or the file ends before its end-of-image marker (cut short).
 */
export function stripJpegMetadata(bytes: Buffer): Buffer | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== SOI) return undefined;
  const out: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  for (;;) {
    // A marker: 0xFF, any number of 0xFF fill bytes, then the marker code.
    if (at >= bytes.length || bytes[at] !== 0xff) return undefined;
    while (at < bytes.length && bytes[at] === 0xff) at++;
    if (at >= bytes.length) return undefined;
    const marker = bytes[at]!;
    at++;
    if (marker === EOI) {
      out.push(Buffer.from([0xff, EOI]));
      return Buffer.concat(out);
    }
    if (marker === SOI || marker === 0x00) return undefined;
    if (isRestart(marker) || marker === 0x01) {
      out.push(Buffer.from([0xff, marker]));
      continue;
    }
    if (at + 2 > bytes.length) return undefined;
    const length = bytes.readUInt16BE(at);
    const end = at + length;
    if (length < 2 || end > bytes.length) return undefined;
    const payloadAt = at + 2;
    const payloadLength = length - 2;
    const segment = bytes.subarray(at - 2, end);

    if (marker === APP0) {
      const jfif = jfifWithoutThumbnail(bytes, payloadAt, payloadLength);
      if (jfif) out.push(jfif);
    } else if (marker === APP2) {
      if (startsWithText(bytes, payloadAt, 'ICC_PROFILE\0')) out.push(segment);
    } else if (marker === APP14) {
      // Tells decoders whether the three channels are YCbCr or RGB (or CMYK/YCCK); no personal data.
      if (startsWithText(bytes, payloadAt, 'Adobe')) out.push(segment);
    } else if (!isApp(marker) && marker !== COM) {
      out.push(segment);
    }
    at = end;

    if (marker === SOS) {
      // Entropy-coded data runs to the next marker that is neither a stuffed 0xFF00 nor a restart.
      const dataStart = at;
      for (;;) {
        const ff = bytes.indexOf(0xff, at);
        if (ff < 0 || ff + 1 >= bytes.length) return undefined;
        const next = bytes[ff + 1]!;
        if (next === 0x00 || isRestart(next)) {
          at = ff + 2;
          continue;
        }
        if (next === 0xff) {
          // Fill bytes before a marker: the marker loop skips them.
          at = ff;
          let probe = ff;
          while (probe < bytes.length && bytes[probe] === 0xff) probe++;
          if (probe >= bytes.length) return undefined;
          if (bytes[probe] === 0x00 || isRestart(bytes[probe]!)) {
            at = probe + 1;
            continue;
          }
          break;
        }
        at = ff;
        break;
      }
      out.push(bytes.subarray(dataStart, at));
    }
  }
}
