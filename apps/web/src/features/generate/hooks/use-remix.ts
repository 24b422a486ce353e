import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AspectRatio, ModelInfo } from '@lumina/contracts';
import { getModelsQueryOptions } from '../api/get-models';
import { generateFormStore } from '../stores/generate-form';
import { findModel, nearestAspectRatio, type Recipe } from '../utils/recipe';

/** Ratios to match against when the image's model is no longer in the catalogue. */
const COMMON_RATIOS: readonly AspectRatio[] = ['1:1', '4:3', '3:4', '16:9', '9:16', '3:2', '2:3'];

/** Fills the Generate form with an image's recipe, mapping its size to the closest ratio the model offers. */
export function remixInto(recipe: Recipe, models: readonly ModelInfo[] | undefined) {
  const offered = findModel(models, recipe.model)?.aspect_ratios ?? COMMON_RATIOS;
  generateFormStore.getState().remix(recipe, nearestAspectRatio(recipe.width, recipe.height, offered));
}

export function useRemix() {
  const queryClient = useQueryClient();
  return useCallback(
    (recipe: Recipe) => {
      remixInto(recipe, queryClient.getQueryData(getModelsQueryOptions().queryKey)?.models);
      if (typeof window !== 'undefined') window.scrollTo?.({ top: 0, behavior: 'smooth' });
    },
    [queryClient],
  );
}

/** Locks a seed (e.g. the one a result was made with) so the next run reuses it. */
export function lockSeed(seed: number) {
  generateFormStore.getState().set({ seed: String(seed), seedLocked: true, advancedOpen: true });
}
