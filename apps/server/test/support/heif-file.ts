/**
 * HEIC files of any size, made at test time: sharp cannot encode HEVC and no heif-enc is installed, so
 * ffmpeg's libx265 codes one flat-colour intra frame and this module wraps it in the smallest HEIF
 * container libheif reads (ftyp, meta with one hvc1 item and its hvcC/ispe properties, mdat). A flat
 * 8000×8000 picture is a few kilobytes: the worst case for a decoder, which must still build every pixel.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultFfmpegPath, runFfmpeg } from '../../src/adapters/media/video.ts';

const u8 = (n: number) => Buffer.from([n]);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
}
const fullBox = (type: string, version: number, flags: number, ...parts: Buffer[]) =>
  box(type, u32((version << 24) | flags), ...parts);

/** Annex B byte stream (00 00 01 start codes) → NAL units. */
function nalUnits(stream: Buffer): Buffer[] {
  const starts: number[] = [];
  for (let i = 0; i + 2 < stream.length; i++) {
    if (stream[i] === 0 && stream[i + 1] === 0 && stream[i + 2] === 1) {
      starts.push(i + 3);
      i += 2;
    }
  }
  return starts.map((start, k) => {
    let end = k + 1 < starts.length ? starts[k + 1]! - 3 : stream.length;
    while (end > start && stream[end - 1] === 0) end--; // 4-byte start codes leave a trailing zero
    return stream.subarray(start, end);
  });
}

const nalType = (nal: Buffer) => (nal[0]! >> 1) & 0x3f;
const VPS = 32;
const SPS = 33;
const PPS = 34;

/** RBSP of a NAL unit: emulation-prevention bytes (00 00 03) removed. */
function rbsp(nal: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < nal.length; i++) {
    if (i >= 2 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    out.push(nal[i]!);
  }
  return Buffer.from(out);
}

/** The hvcC box (ISO/IEC 14496-15): profile, tier and level copied from the SPS, then the parameter sets. */
function hvcC(vps: Buffer, sps: Buffer, pps: Buffer): Buffer {
  // SPS: 2-byte NAL header, 1 byte of ids, then the 12-byte general profile_tier_level.
  const profileTierLevel = rbsp(sps).subarray(3, 15);
  const array = (type: number, nal: Buffer) => Buffer.concat([u8(0x80 | type), u16(1), u16(nal.length), nal]);
  return box(
    'hvcC',
    u8(1),
    profileTierLevel,
    u16(0xf000), // min_spatial_segmentation_idc 0
    u8(0xfc), // parallelismType 0
    u8(0xfd), // chroma_format_idc 1 (4:2:0)
    u8(0xf8), // bit_depth_luma_minus8 0
    u8(0xf8), // bit_depth_chroma_minus8 0
    u16(0), // avgFrameRate
    u8(0x0f), // one temporal layer, NAL lengths in 4 bytes
    u8(3),
    array(VPS, vps),
    array(SPS, sps),
    array(PPS, pps),
  );
}

/** A HEIF file holding one HEVC-coded image item of the given stream's frame. */
export function heifFromHevc(stream: Buffer, width: number, height: number): Buffer {
  const nals = nalUnits(stream);
  const find = (type: number) => {
    const nal = nals.find((n) => nalType(n) === type);
    if (!nal) throw new Error(`HEVC stream has no NAL unit of type ${type}`);
    return nal;
  };
  const slices = nals.filter((n) => nalType(n) < 32);
  const data = Buffer.concat(slices.flatMap((n) => [u32(n.length), n]));

  const ftyp = box('ftyp', Buffer.from('heic', 'latin1'), u32(0), Buffer.from('mif1heic', 'latin1'));
  const meta = (dataOffset: number) =>
    fullBox(
      'meta',
      0,
      0,
      fullBox('hdlr', 0, 0, u32(0), Buffer.from('pict', 'latin1'), Buffer.alloc(12), u8(0)),
      fullBox('pitm', 0, 0, u16(1)),
      // offset_size 4, length_size 4, base_offset_size 0; one item, one extent.
      fullBox(
        'iloc',
        0,
        0,
        u8(0x44),
        u8(0),
        u16(1),
        u16(1),
        u16(0),
        u16(1),
        u32(dataOffset),
        u32(data.length),
      ),
      fullBox(
        'iinf',
        0,
        0,
        u16(1),
        fullBox('infe', 2, 0, u16(1), u16(0), Buffer.from('hvc1', 'latin1'), u8(0)),
      ),
      box(
        'iprp',
        box('ipco', hvcC(find(VPS), find(SPS), find(PPS)), fullBox('ispe', 0, 0, u32(width), u32(height))),
        // Item 1: property 1 (hvcC, essential) and property 2 (ispe).
        fullBox('ipma', 0, 0, u32(1), u16(1), u8(2), u8(0x81), u8(0x02)),
      ),
    );
  // The meta box's size does not depend on the offset it records, so measure it once.
  const offset = ftyp.length + meta(0).length + 8;
  return Buffer.concat([ftyp, meta(offset), box('mdat', data)]);
}

/** A flat-colour HEIC of width × height (both even), coded by ffmpeg's libx265. */
export async function flatHeic(width: number, height: number, colour = 'teal'): Promise<Buffer> {
  return heifFromHevc(await flatHevcFrame(width, height, colour), width, height);
}

/** One flat-colour HEVC frame as an Annex B byte stream. */
export async function flatHevcFrame(width: number, height: number, colour = 'teal'): Promise<Buffer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lumina-heic-'));
  try {
    const out = path.join(dir, 'frame.hevc');
    const run = await runFfmpeg(defaultFfmpegPath(), [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      `color=c=${colour}:size=${width}x${height}`,
      '-frames:v',
      '1',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error',
      '-f',
      'hevc',
      '-y',
      out,
    ]);
    if (run.code !== 0) throw new Error(`ffmpeg could not code the HEIC frame: ${run.stderr}`);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
