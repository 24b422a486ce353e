import { useMutation, useQueryClient } from '@tanstack/react-query';
import { publishExampleContract, unpublishExampleContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { imagesQueryKey } from './list-images';
import { patchImage } from '../utils/image-cache';

export const publishExample = ({ id, category }: { id: string; category: string }) =>
  api.call(publishExampleContract, { params: { id }, body: { category } });

export const unpublishExample = (id: string) => api.call(unpublishExampleContract, { params: { id } });

export function usePublishExample() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishExample,
    onSuccess: (image) => {
      patchImage(queryClient, image.id, image);
      void queryClient.invalidateQueries({ queryKey: imagesQueryKey });
    },
  });
}

export function useUnpublishExample() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unpublishExample,
    onSuccess: (_result, id) => {
      patchImage(queryClient, id, { is_example: false, category: null });
      void queryClient.invalidateQueries({ queryKey: imagesQueryKey });
    },
  });
}
