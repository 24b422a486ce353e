/**
 * Keeps an MP4 playable when a box is inserted before its media data. An MP4 names where each chunk of
 * samples starts as an absolute file offset (`stco`/`co64` in each track; `tfhd`'s base data offset in
 * a fragment that carries one), so the C2PA box that c2pa-ts inserts after `ftyp` would leave every
 * offset pointing short of its samples. c2pa-ts moves the offsets of HEIF's `iloc` but not these; this
 * moves them, by the move of the top-level box each one points into.
 */

/** The C2PA manifest box's user type (a top-level `uuid` box): d8fec3d6-1b0e-483c-9297-5828877ec481. */
const C2PA_UUID = Buffer.from('d8fec3d61b0e483c92975828877ec481', 'hex');

export interface TopLevelBox {
  type: string;
  start: number;
  size: number;
}

export class Mp4LayoutError extends Error {}

interface Box extends TopLevelBox {
  /** Where the box's payload starts (after size, type, a large size and a uuid's user type). */
  payload: number;
}

/** The boxes laid one after another in `[from, to)` of `buf`. */
function* boxes(buf: Buffer, from: number, to: number): Generator<Box> {
  let pos = from;
  while (pos + 8 <= to) {
    let size = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    let header = 8;
    if (size === 1) {
      if (pos + 16 > to) throw new Mp4LayoutError('a box is cut short');
      size = Number(buf.readBigUInt64BE(pos + 8));
      header = 16;
    } else if (size === 0) {
      size = to - pos;
    }
    if (type === 'uuid') header += 16;
    if (size < header || pos + size > to) throw new Mp4LayoutError(`the ${type} box has a wrong size`);
    yield { type, start: pos, size, payload: pos + header };
    pos += size;
  }
}

const isC2paBox = (buf: Buffer, box: Box) =>
  box.type === 'uuid' && buf.subarray(box.payload - 16, box.payload).equals(C2PA_UUID);

/** The file's top-level boxes other than C2PA manifest boxes, in order. */
export function topLevelBoxes(bytes: Uint8Array): TopLevelBox[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [...boxes(buf, 0, buf.length)]
    .filter((box) => !isC2paBox(buf, box))
    .map(({ type, start, size }) => ({ type, start, size }));
}

/** The major and compatible brands of the file's leading `ftyp` box (none when it starts otherwise). */
export function fileTypeBrands(bytes: Uint8Array): string[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const first = boxes(buf, 0, buf.length).next().value;
    if (!first || first.type !== 'ftyp' || first.size < 16) return [];
    const brands = [buf.toString('latin1', first.payload, first.payload + 4)];
    // major brand (4), minor version (4), then compatible brands (4 each).
    for (let at = first.payload + 8; at + 4 <= first.start + first.size; at += 4) {
      brands.push(buf.toString('latin1', at, at + 4));
    }
    return brands;
  } catch (error) {
    if (error instanceof Mp4LayoutError) return [];
    throw error;
  }
}

/** The children of the first box of each type along `path` below `parent`. */
function* descend(buf: Buffer, parent: Box, path: readonly string[]): Generator<Box> {
  const [next, ...rest] = path;
  for (const child of boxes(buf, parent.payload, parent.start + parent.size)) {
    if (child.type !== next) continue;
    if (rest.length === 0) yield child;
    else yield* descend(buf, child, rest);
  }
}

/**
 * Points the chunk offsets of `after` (the same file with boxes inserted, removed or moved at the top
 * level), in place, where their samples went. `before` is the original's `topLevelBoxes`; the two lists
 * must hold the same boxes in the same order. Throws Mp4LayoutError when an offset points into no box
 * (`after` may then be changed in part: the caller keeps the original).
 */
export function relocateChunkOffsets(before: readonly TopLevelBox[], after: Uint8Array): void {
  const out = Buffer.from(after.buffer, after.byteOffset, after.byteLength);
  const moved = topLevelBoxes(out);
  if (moved.length !== before.length || moved.some((box, i) => box.type !== before[i]!.type)) {
    throw new Mp4LayoutError('the top-level boxes changed, not only moved');
  }
  const relocate = (offset: number) => {
    const i = before.findIndex((box) => offset >= box.start && offset < box.start + box.size);
    if (i < 0) throw new Mp4LayoutError(`a chunk offset (${offset}) points into no box`);
    return offset - before[i]!.start + moved[i]!.start;
  };
  for (const top of boxes(out, 0, out.length)) {
    if (top.type === 'moov') {
      for (const stbl of descend(out, top, ['trak', 'mdia', 'minf', 'stbl'])) {
        for (const table of boxes(out, stbl.payload, stbl.start + stbl.size)) {
          if (table.type !== 'stco' && table.type !== 'co64') continue;
          // version and flags (4), entry count (4), then 32-bit (stco) or 64-bit (co64) offsets.
          const count = out.readUInt32BE(table.payload + 4);
          const width = table.type === 'stco' ? 4 : 8;
          if (table.payload + 8 + count * width > table.start + table.size) {
            throw new Mp4LayoutError(`the ${table.type} box is cut short`);
          }
          for (let k = 0; k < count; k++) {
            const at = table.payload + 8 + k * width;
            if (width === 4) {
              const next = relocate(out.readUInt32BE(at));
              if (next > 0xffffffff) throw new Mp4LayoutError('a chunk moved past 4 GiB');
              out.writeUInt32BE(next, at);
            } else {
              out.writeBigUInt64BE(BigInt(relocate(Number(out.readBigUInt64BE(at)))), at);
            }
          }
        }
      }
    } else if (top.type === 'moof') {
      for (const tfhd of descend(out, top, ['traf', 'tfhd'])) {
        // version (1), flags (3; 0x000001: a base data offset follows), track id (4), base data offset (8).
        if ((out.readUInt32BE(tfhd.payload) & 0x000001) === 0) continue;
        const at = tfhd.payload + 8;
        out.writeBigUInt64BE(BigInt(relocate(Number(out.readBigUInt64BE(at)))), at);
      }
    }
  }
}
