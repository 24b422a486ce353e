import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteVideoContract, type VideoView } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { videosQueryKey } from './list-videos';

export const deleteVideo = (id: string) => api.call(deleteVideoContract, { params: { id } });

/** Deletes a finished video and drops it from the list at once. */
export function useDeleteVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVideo,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<{ items: VideoView[]; next_cursor: string | null }>(videosQueryKey, (old) =>
        old ? { ...old, items: old.items.filter((video) => video.id !== id) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: videosQueryKey });
    },
  });
}
