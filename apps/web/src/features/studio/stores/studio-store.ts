import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ImageView, Tool } from '@lumina/contracts';
import { convertPreview } from '../api/convert-preview';
import { firstSlot, initialForms, type ToolForms } from '../tools';
import { previewMode } from '../utils/file-input';
import type { FileInput, GalleryInput, InputSlot, PickedInput, ToolRun } from '../utils/inputs';

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
  pickImage(firstSlot(tool), image, store);
}
