import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveImageContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { imagesQueryKey } from './list-images';
import { patchImage, restoreImages, snapshotImages, type CacheSnapshot } from '../utils/image-cache';

export const saveImage = (id: string) => api.call(saveImageContract, { params: { id } });

/** Saves an image to the collection: shown as saved at once, rolled back if the server refuses. */
export function useSaveImage() {
  const queryClient = useQueryClient();
  return useMutation<Awaited<ReturnType<typeof saveImage>>, Error, string, CacheSnapshot>({
    mutationFn: saveImage,
    onMutate: async (id) => {
      const snapshot = await snapshotImages(queryClient);
      patchImage(queryClient, id, { is_saved: true });
      return snapshot;
    },
    onError: (_error, _id, snapshot) => restoreImages(queryClient, snapshot),
    onSuccess: (image) => patchImage(queryClient, image.id, image),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...imagesQueryKey, 'list'] }),
  });
}
