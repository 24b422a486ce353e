import { useMutation, useQueryClient } from '@tanstack/react-query';
import { favoriteImageContract, unfavoriteImageContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { imagesQueryKey } from './list-images';
import { patchImage, restoreImages, snapshotImages, type CacheSnapshot } from '../utils/image-cache';

export const favoriteImage = (id: string) => api.call(favoriteImageContract, { params: { id } });
export const unfavoriteImage = (id: string) => api.call(unfavoriteImageContract, { params: { id } });

export interface FavoriteInput {
  id: string;
  favorite: boolean;
}

/** Favourites or unfavourites an image: the heart flips at once and flips back if the server refuses. */
export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation<Awaited<ReturnType<typeof favoriteImage>>, Error, FavoriteInput, CacheSnapshot>({
    mutationFn: ({ id, favorite }) => (favorite ? favoriteImage(id) : unfavoriteImage(id)),
    onMutate: async ({ id, favorite }) => {
      const snapshot = await snapshotImages(queryClient);
      patchImage(queryClient, id, { is_favorite: favorite });
      return snapshot;
    },
    onError: (_error, _input, snapshot) => restoreImages(queryClient, snapshot),
    onSuccess: (image) => patchImage(queryClient, image.id, image),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...imagesQueryKey, 'list'] }),
  });
}
