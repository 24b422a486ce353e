import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveImageContract, unsaveImageContract, type ImageView } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const saveImage = ({ id, saved }: { id: string; saved: boolean }) =>
  api.call(saved ? saveImageContract : unsaveImageContract, { params: { id } });

type Page = { items: ImageView[]; next_cursor: string | null };

/** Saves (PUT /api/images/{id}) or un-saves a result, then writes the answer into every cached image list. */
export function useSaveImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveImage,
    onSuccess: (image) => {
      queryClient.setQueriesData<Page>({ queryKey: ['images'] }, (data) =>
        data && Array.isArray(data.items)
          ? { ...data, items: data.items.map((item) => (item.id === image.id ? image : item)) }
          : data,
      );
      void queryClient.invalidateQueries({ queryKey: ['images'], refetchType: 'none' });
    },
  });
}
