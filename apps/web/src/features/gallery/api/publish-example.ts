import { useMutation, useQueryClient } from '@tanstack/react-query';
import { publishExampleContract, unpublishExampleContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { examplesQueryKey } from '@/lib/examples/example-categories';
import { imagesQueryKey, patchImage } from '@/lib/images/image-cache';

export const publishExample = ({ id, category }: { id: string; category: string }) =>
  api.call(publishExampleContract, { params: { id }, body: { category } });

export const unpublishExample = (id: string) => api.call(unpublishExampleContract, { params: { id } });

/** Publishing or unpublishing changes the person's images and the public examples (and their categories). */
export function usePublishExample() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishExample,
    onSuccess: (image) => {
      patchImage(queryClient, image.id, image);
      void queryClient.invalidateQueries({ queryKey: imagesQueryKey });
      void queryClient.invalidateQueries({ queryKey: examplesQueryKey });
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
      void queryClient.invalidateQueries({ queryKey: examplesQueryKey });
    },
  });
}
