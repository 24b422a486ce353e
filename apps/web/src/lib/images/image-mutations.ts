import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  deleteImageContract,
  favoriteImageContract,
  saveImageContract,
  unfavoriteImageContract,
  unsaveImageContract,
  type ImageView,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';
import {
  imagesQueryKey,
  patchImage,
  removeImage,
  restoreImages,
  snapshotImages,
  type CacheSnapshot,
} from './image-cache';

/**
 * The image actions every page shares (Generate, Studio, Gallery): each one patches every cached image
 * list at once, and the toggles roll back if the server refuses.
 */

export const saveImage = ({ id, saved }: { id: string; saved: boolean }) =>
  api.call(saved ? saveImageContract : unsaveImageContract, { params: { id } });

export const favoriteImage = (id: string) => api.call(favoriteImageContract, { params: { id } });
export const unfavoriteImage = (id: string) => api.call(unfavoriteImageContract, { params: { id } });
export const deleteImage = (id: string) => api.call(deleteImageContract, { params: { id } });

/** An optimistic flag change on one image: shown at once, the server's answer written back, undone on refusal. */
function useImageToggle<Input extends { id: string }>(
  send: (input: Input) => Promise<ImageView>,
  patch: (input: Input) => Partial<ImageView>,
) {
  const queryClient = useQueryClient();
  return useMutation<ImageView, Error, Input, CacheSnapshot>({
    mutationFn: send,
    onMutate: async (input) => {
      const snapshot = await snapshotImages(queryClient);
      patchImage(queryClient, input.id, patch(input));
      return snapshot;
    },
    onError: (_error, _input, snapshot) => restoreImages(queryClient, snapshot),
    onSuccess: (image) => patchImage(queryClient, image.id, image),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...imagesQueryKey, 'list'] }),
  });
}

/** Saves or un-saves an image. */
export const useSaveImage = () =>
  useImageToggle(saveImage, ({ saved }: { id: string; saved: boolean }) => ({ is_saved: saved }));

export interface FavoriteInput {
  id: string;
  favorite: boolean;
}

/** Favourites or unfavourites an image: the heart flips at once and flips back if the server refuses. */
export const useToggleFavorite = () =>
  useImageToggle(
    ({ id, favorite }: FavoriteInput) => (favorite ? favoriteImage(id) : unfavoriteImage(id)),
    ({ favorite }) => ({ is_favorite: favorite }),
  );

/** Deletes an image and drops it from every cached list. */
export function useDeleteImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteImage,
    onSuccess: (_result, id) => {
      removeImage(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: [...imagesQueryKey, 'list'] });
    },
  });
}
