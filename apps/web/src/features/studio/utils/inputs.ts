import type { ImageView, JobStatus, Tool } from '@lumina/contracts';

/**
 * Where an image goes in, named by the tool's definition (one per tool; product holding has a person and
 * a product). Each name has its label under `studio.input.<slot>`.
 */
export type InputSlot = string;

export type Preview =
  | { status: 'ready'; url: string; converted: boolean }
  | { status: 'converting' }
  | { status: 'failed'; message: string };

/** A file picked from the device: previewed locally (or through the server), uploaded when a tool needs an id. */
export interface FileInput {
  key: number;
  source: 'file';
  file: File;
  preview: Preview;
  /** Pixel size once the local preview has loaded (not known for converted previews until uploaded). */
  width: number | null;
  height: number | null;
  /** The stored copy, once uploaded (so a second run does not upload again). */
  uploaded: ImageView | null;
}

/** One of the user's images (from the gallery, or a result used as the next input). */
export interface GalleryInput {
  key: number;
  source: 'image';
  image: ImageView;
}

export type PickedInput = FileInput | GalleryInput;

/** A job the studio started: what went in (for the before/after) and the settings that shape the result. */
export interface ToolRun {
  jobId: string;
  tool: Tool;
  cost: number;
  acceptedStatus: JobStatus;
  inputs: PickedInput[];
  factor?: number;
  aspectRatio?: string;
  duration?: number;
  /** What the server said about the run when it came from the history (no live feed entry needed). */
  known?: { imageIds: string[]; refunded: boolean; error: string | null };
}

/** The URL that shows an input, or null while its preview is not ready. */
export function inputUrl(input: PickedInput | undefined): string | null {
  if (!input) return null;
  if (input.source === 'image') return input.image.url;
  return input.preview.status === 'ready' ? input.preview.url : null;
}

/** An input's pixel size when known. */
export function inputSize(input: PickedInput | undefined): { width: number; height: number } | null {
  if (!input) return null;
  if (input.source === 'image') return { width: input.image.width, height: input.image.height };
  if (input.uploaded) return { width: input.uploaded.width, height: input.uploaded.height };
  if (input.width && input.height && input.preview.status === 'ready' && !input.preview.converted)
    return { width: input.width, height: input.height };
  return null;
}

/** The input's id on the server, if it has one already. */
export function inputImageId(input: PickedInput): string | null {
  return input.source === 'image' ? input.image.id : (input.uploaded?.id ?? null);
}
