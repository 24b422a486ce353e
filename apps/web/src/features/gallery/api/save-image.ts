import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveImageContract, unsaveImageContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { imagesQueryKey } from './list-images';
import { patchImage, restoreImages, snapshotImages, type CacheSnapshot } from '../utils/image-cache';

export const saveImage = ({ id, saved }: { id: string; saved: boolean }) =>
  api.call(saved ? saveImageContract : unsaveImageContract, { params: { id } });

/** Saves or un-saves an image: shown at once, rolled back if the server refuses. */
export function useSaveImage() {
  const queryClient = useQueryClient();
  return useMutation<
    Awaited<ReturnType<typeof saveImage>>,
    Error,
    { id: string; saved: boolean },
    CacheSnapshot
  >({
    mutationFn: saveImage,
    onMutate: async ({ id, saved }) => {
      const snapshot = await snapshotImages(queryClient);
      patchImage(queryClient, id, { is_saved: saved });
      return snapshot;
    },
    onError: (_error, _id, snapshot) => restoreImages(queryClient, snapshot),
    onSuccess: (image) => patchImage(queryClient, image.id, image),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [...imagesQueryKey, 'list'] }),
  });
}
