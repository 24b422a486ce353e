import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveVideoContract, unsaveVideoContract, type VideoView } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { videosQueryKey } from './list-videos';

export const saveVideo = ({ id, saved }: { id: string; saved: boolean }) =>
  api.call(saved ? saveVideoContract : unsaveVideoContract, { params: { id } });

/** Saves or un-saves a finished video, then writes the answer into the cached list. */
export function useSaveVideo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveVideo,
    onSuccess: (video) => {
      queryClient.setQueryData<{ items: VideoView[]; next_cursor: string | null }>(videosQueryKey, (old) =>
        old ? { ...old, items: old.items.map((item) => (item.id === video.id ? video : item)) } : old,
      );
    },
  });
}
