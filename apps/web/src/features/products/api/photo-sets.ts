import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  attachPhotosContract,
  pendingImageSetsContract,
  uploadOnboardingImagesContract,
  type PurchaseView,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { myProductsQueryKey } from './get-my-products';

export const pendingSetsQueryKey = ['products', 'pending-sets'] as const;

/** The caller's photo sets not yet used by a purchase or a training: what a waiting shoot may take. */
export const usePendingImageSets = (enabled = true) =>
  useQuery({
    ...queryOptions({
      queryKey: pendingSetsQueryKey,
      queryFn: ({ signal }) => api.call(pendingImageSetsContract, { signal }),
    }),
    enabled,
  });

/** New photos become a pending set (checked like training photos); the answer lists any refused. */
export function useUploadPhotoSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (files: readonly File[]) => {
      const form = new FormData();
      for (const file of files) form.append('files', file, file.name);
      return api.callForm(uploadOnboardingImagesContract, form);
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pendingSetsQueryKey }),
  });
}

/** Gives a waiting photo shoot its photos; training starts, and the set is no longer pending. */
export function useAttachPhotos() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ purchaseId, setId }: { purchaseId: string; setId: string }) =>
      api.call(attachPhotosContract, { params: { id: purchaseId }, body: { set_id: setId } }),
    onSuccess: (purchase) => {
      queryClient.setQueryData<PurchaseView[]>(myProductsQueryKey, (list) =>
        list?.map((p) => (p.id === purchase.id ? purchase : p)),
      );
      void queryClient.invalidateQueries({ queryKey: myProductsQueryKey });
      void queryClient.invalidateQueries({ queryKey: pendingSetsQueryKey });
    },
  });
}
