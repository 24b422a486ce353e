import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadOnboardingImagesContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { pendingImageSetsQueryKey } from './pending-image-sets';

/** Each photo (or one zip) under `files`, as the training upload sends them. */
export function uploadOnboardingImages(files: readonly File[]) {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  return api.callForm(uploadOnboardingImagesContract, form);
}

/** Stores the photos as a new pending set; the answer lists what was kept and what was refused, with why. */
export function useUploadOnboardingImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadOnboardingImages,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pendingImageSetsQueryKey }),
  });
}
