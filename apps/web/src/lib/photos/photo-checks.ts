import { TRAINING_MIN_SIDE } from '@lumina/contracts';

/**
 * What the browser can tell about a picked file before anything is sent: whether it is a zip or a photo,
 * whether the same file was picked twice, and (once its preview has loaded) whether it is too small.
 * The server checks everything again from the bytes; these only spare people an upload sure to be refused.
 */

export type PickedKind = 'photo' | 'zip' | 'other';

/** Why a picked file will not be sent; null when it will. */
export type PickedProblem = 'duplicate' | 'tooSmall' | 'notPhoto' | null;

export interface PickedFile {
  /** Stable across renders: the file's name and size and when it was picked. */
  key: string;
  file: File;
  kind: PickedKind;
  /** An object URL for the preview (photos only); revoked when the file leaves the list. */
  previewUrl: string | null;
  /** Known once the preview has loaded. */
  size: { width: number; height: number } | null;
  problem: PickedProblem;
}

const PHOTO_NAME = /\.(jpe?g|jfif|png|webp|gif|heic|heif|hif|avif|tiff?)$/i;
const ZIP_TYPES = new Set(['application/zip', 'application/x-zip-compressed', 'multipart/x-zip']);

export function pickedKind(file: Pick<File, 'name' | 'type'>): PickedKind {
  if (ZIP_TYPES.has(file.type) || /\.zip$/i.test(file.name)) return 'zip';
  if (file.type.startsWith('image/') || PHOTO_NAME.test(file.name)) return 'photo';
  return 'other';
}

/** Same name and byte size: the same file picked twice (the server also refuses look-alikes by hash). */
export const sameFileKey = (file: Pick<File, 'name' | 'size'>) => `${file.name}\u0000${file.size}`;

export const isTooSmall = (size: { width: number; height: number }) =>
  Math.min(size.width, size.height) < TRAINING_MIN_SIDE;

let picks = 0;

/**
 * Adds newly picked files to the list: each is classified, and one whose name and size match a file
 * already listed or already uploaded (`uploaded`) is marked a duplicate.
 */
export function addPicked(
  list: readonly PickedFile[],
  files: readonly File[],
  uploaded: ReadonlySet<string>,
  objectUrl: (file: File) => string | null,
): PickedFile[] {
  const seen = new Set([...uploaded, ...list.map((p) => sameFileKey(p.file))]);
  const added = files.map((file): PickedFile => {
    const kind = pickedKind(file);
    const id = sameFileKey(file);
    const duplicate = seen.has(id);
    seen.add(id);
    picks += 1;
    return {
      key: `${id}\u0000${picks}`,
      file,
      kind,
      previewUrl: kind === 'photo' && !duplicate ? objectUrl(file) : null,
      size: null,
      problem: kind === 'other' ? 'notPhoto' : duplicate ? 'duplicate' : null,
    };
  });
  return [...list, ...added];
}

/** The preview of `key` loaded with this natural size: a photo under the minimum side is marked too small. */
export function withSize(
  list: readonly PickedFile[],
  key: string,
  size: { width: number; height: number },
): PickedFile[] {
  return list.map((p) =>
    p.key === key ? { ...p, size, problem: p.problem ?? (isTooSmall(size) ? 'tooSmall' : null) } : p,
  );
}

/** The files that will be sent: every photo and zip without a problem. */
export const sendable = (list: readonly PickedFile[]) => list.filter((p) => p.problem === null);
