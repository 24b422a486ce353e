import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { AspectRatio } from '@lumina/contracts';
import type { Recipe } from '../utils/recipe';

export const DEFAULT_LORA_SCALE = 1;
export const DEFAULT_PROMPT_STRENGTH = 0.8;

export interface GenerateFormValues {
  text: string;
  negativeText: string;
  /** Null until the catalogue loads and picks its default. */
  model: string | null;
  /** The seed field as typed; only sent when `seedLocked`. */
  seed: string;
  seedLocked: boolean;
  loraScale: number;
  promptStrength: number;
  aspectRatio: AspectRatio | null;
  numImages: number;
  advancedOpen: boolean;
}

export interface GenerateFormState extends GenerateFormValues {
  set: (patch: Partial<GenerateFormValues>) => void;
  /** Fills the form with an image's recipe: prompt, negative, model, seed (locked), sliders and aspect. */
  remix: (recipe: Recipe, aspectRatio: AspectRatio | null) => void;
  reset: () => void;
}

export const initialFormValues: GenerateFormValues = {
  text: '',
  negativeText: '',
  model: null,
  seed: '',
  seedLocked: false,
  loraScale: DEFAULT_LORA_SCALE,
  promptStrength: DEFAULT_PROMPT_STRENGTH,
  aspectRatio: null,
  numImages: 1,
  advancedOpen: false,
};

export const createGenerateFormStore = () =>
  createStore<GenerateFormState>()((set) => ({
    ...initialFormValues,
    set: (patch) => set(patch),
    remix: (recipe, aspectRatio) =>
      set({
        text: recipe.prompt ?? '',
        negativeText: recipe.negative_prompt ?? '',
        model: recipe.model,
        seed: recipe.seed === null ? '' : String(recipe.seed),
        seedLocked: recipe.seed !== null,
        loraScale: recipe.lora_scale ?? DEFAULT_LORA_SCALE,
        promptStrength: recipe.prompt_strength ?? DEFAULT_PROMPT_STRENGTH,
        aspectRatio,
        // Open "Advanced" when the recipe has anything in it, so the remix is visible.
        advancedOpen: Boolean(recipe.negative_prompt) || recipe.seed !== null,
      }),
    reset: () => set(initialFormValues),
  }));

/** One form per tab, kept across page changes so a remix from the gallery lands in it. */
export const generateFormStore = createGenerateFormStore();

export function useGenerateForm<T>(selector: (state: GenerateFormState) => T): T {
  return useStore(generateFormStore, selector);
}
