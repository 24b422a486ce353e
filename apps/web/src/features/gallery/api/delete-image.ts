import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteImageContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { imagesQueryKey } from './list-images';
import { removeImage } from '../utils/image-cache';

export const deleteImage = (id: string) => api.call(deleteImageContract, { params: { id } });

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
