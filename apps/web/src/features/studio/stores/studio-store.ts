import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import {
  ANIMATE_DEFAULT_DURATION,
  EDIT_DEFAULT_STRENGTH,
  type ImageView,
  type JobStatus,
  type Tool,
} from '@lumina/contracts';
import { convertPreview } from '../api/convert-preview';
import { previewMode } from '../utils/file-input';

/** Where an image goes in: one per tool, two for product holding (the person and the product). */
export type InputSlot = 'edit' | 'copy_style' | 'person' | 'product' | 'upscale' | 'animate';

export const TOOL_SLOTS: Record<Tool, readonly InputSlot[]> = {
  edit: ['edit'],
  copy_style: ['copy_style'],
  product_holding: ['person', 'product'],
  upscale: ['upscale'],
  animate: ['animate'],
};

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

export interface ToolForms {
  edit: { prompt: string; negativePrompt: string; strength: number; seed: string; model: string | null };
  copy_style: { description: string; model: string | null };
  product_holding: { aspectRatio: string | null; prompt: string; model: string | null };
  upscale: { factor: number; model: string | null };
  animate: { prompt: string; duration: number; model: string | null };
}

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

export interface StudioState {
  inputs: Partial<Record<InputSlot, PickedInput>>;
  forms: ToolForms;
  runs: Partial<Record<Tool, ToolRun>>;
  setInput: (slot: InputSlot, input: PickedInput | null) => void;
  /** Changes the input in `slot` only if it is still the one with `key` (async answers may arrive late). */
  patchFileInput: (slot: InputSlot, key: number, patch: Partial<FileInput>) => void;
  setForm: <T extends Tool>(tool: T, patch: Partial<ToolForms[T]>) => void;
  setRun: (tool: Tool, run: ToolRun | null) => void;
  reset: () => void;
}

export const initialForms: ToolForms = {
  edit: { prompt: '', negativePrompt: '', strength: EDIT_DEFAULT_STRENGTH, seed: '', model: null },
  copy_style: { description: '', model: null },
  product_holding: { aspectRatio: null, prompt: '', model: null },
  upscale: { factor: 2, model: null },
  animate: { prompt: '', duration: ANIMATE_DEFAULT_DURATION, model: null },
};

let nextKey = 0;
const newKey = () => ++nextKey;

/** Object URLs this module made; each is revoked once no input or run refers to it any more. */
const ownedUrls = new Set<string>();
const conversions = new Map<number, AbortController>();

function createUrl(blob: Blob): string | null {
  if (typeof URL.createObjectURL !== 'function') return null;
  const url = URL.createObjectURL(blob);
  ownedUrls.add(url);
  return url;
}

function urlsIn(state: Pick<StudioState, 'inputs' | 'runs'>): Set<string> {
  const urls = new Set<string>();
  const add = (input: PickedInput | undefined) => {
    if (input?.source === 'file' && input.preview.status === 'ready') urls.add(input.preview.url);
  };
  Object.values(state.inputs).forEach(add);
  for (const run of Object.values(state.runs)) run?.inputs.forEach(add);
  return urls;
}

function keysIn(state: Pick<StudioState, 'inputs'>): Set<number> {
  return new Set(Object.values(state.inputs).map((input) => input?.key ?? -1));
}

export const createStudioStore = () => {
  const store = createStore<StudioState>()((set) => ({
    inputs: {},
    forms: initialForms,
    runs: {},
    setInput: (slot, input) =>
      set((state) => {
        const inputs = { ...state.inputs };
        if (input) inputs[slot] = input;
        else delete inputs[slot];
        return { inputs };
      }),
    patchFileInput: (slot, key, patch) =>
      set((state) => {
        const current = state.inputs[slot];
        if (current?.source !== 'file' || current.key !== key) return {};
        return { inputs: { ...state.inputs, [slot]: { ...current, ...patch } } };
      }),
    setForm: (tool, patch) =>
      set((state) => ({ forms: { ...state.forms, [tool]: { ...state.forms[tool], ...patch } } })),
    setRun: (tool, run) =>
      set((state) => {
        const runs = { ...state.runs };
        if (run) runs[tool] = run;
        else delete runs[tool];
        return { runs };
      }),
    reset: () => set({ inputs: {}, forms: initialForms, runs: {} }),
  }));

  // Housekeeping outside React: free preview URLs nothing shows any more, stop conversions nobody waits for.
  store.subscribe((next, previous) => {
    if (next.inputs === previous.inputs && next.runs === previous.runs) return;
    const live = urlsIn(next);
    for (const url of urlsIn(previous)) {
      if (!live.has(url) && ownedUrls.delete(url)) URL.revokeObjectURL(url);
    }
    const keys = keysIn(next);
    for (const [key, controller] of conversions) {
      if (!keys.has(key)) {
        controller.abort();
        conversions.delete(key);
      }
    }
  });
  return store;
};

export type StudioStore = ReturnType<typeof createStudioStore>;

/** One studio per tab, kept across page changes (so the gallery can hand it an image). */
export const studioStore = createStudioStore();

export function useStudio<T>(selector: (state: StudioState) => T): T {
  return useStore(studioStore, selector);
}

/**
 * Puts a picked file into `slot`: shown at once when the browser can display it, otherwise through the
 * server's JPEG preview (HEIC, TIFF, AVIF, very large PNG).
 */
export function pickFile(
  slot: InputSlot,
  file: File,
  store: StudioStore = studioStore,
  /** The type the file's bytes show (file-input's sniffFile), which wins over its name. */
  sniffed?: string | null,
): FileInput {
  const key = newKey();
  const mode = previewMode(file, sniffed);
  const url = mode === 'browser' ? createUrl(file) : null;
  const input: FileInput = {
    key,
    source: 'file',
    file,
    preview: url ? { status: 'ready', url, converted: false } : { status: 'converting' },
    width: null,
    height: null,
    uploaded: null,
  };
  store.getState().setInput(slot, input);
  if (!url) void convert(slot, input, store);
  return input;
}

async function convert(slot: InputSlot, input: FileInput, store: StudioStore) {
  const controller = new AbortController();
  conversions.set(input.key, controller);
  try {
    const blob = await convertPreview(input.file, controller.signal);
    const url = createUrl(blob);
    if (!url) throw new Error('This browser cannot show previews.');
    store.getState().patchFileInput(slot, input.key, { preview: { status: 'ready', url, converted: true } });
    // If the input was replaced meanwhile, nothing refers to the URL: free it now.
    if (store.getState().inputs[slot]?.key !== input.key && ownedUrls.delete(url)) URL.revokeObjectURL(url);
  } catch (error) {
    if (controller.signal.aborted) return;
    const message = error instanceof Error ? error.message : String(error);
    store.getState().patchFileInput(slot, input.key, { preview: { status: 'failed', message } });
  } finally {
    conversions.delete(input.key);
  }
}

/** Puts one of the user's images into `slot`. */
export function pickImage(slot: InputSlot, image: ImageView, store: StudioStore = studioStore): GalleryInput {
  const input: GalleryInput = { key: newKey(), source: 'image', image };
  store.getState().setInput(slot, input);
  return input;
}

/** One of the user's images as an input, not yet placed in a slot. */
export function galleryInput(image: ImageView): GalleryInput {
  return { key: newKey(), source: 'image', image };
}

/** Hands an image to a tool (e.g. from the gallery or a result); the first input of that tool takes it. */
export function sendToStudio(tool: Tool, image: ImageView, store: StudioStore = studioStore) {
  pickImage(TOOL_SLOTS[tool][0] as InputSlot, image, store);
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
