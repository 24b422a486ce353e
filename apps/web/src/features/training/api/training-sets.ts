import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deleteTrainingPhotoContract,
  deleteTrainingSetContract,
  extendTrainingSetContract,
  listTrainingSetsContract,
  uploadTrainingPhotosContract,
  type TrainingSetView,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';
import { myModelsQueryKey } from './my-models';

export const trainingSetsQueryKey = ['training', 'sets'] as const;

/** A set changed on this page: the stored list is refetched, so coming back to the page shows it as it is. */
function useRefreshTrainingSets() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: trainingSetsQueryKey });
}

/** The multipart form every training upload sends: each photo (or one zip) under `files`. */
function photosForm(files: readonly File[]): FormData {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  return form;
}

/** Starts a set from the files, or adds them to `setId`; the answer lists what was kept and what was refused. */
export function uploadTrainingPhotos({ setId, files }: { setId: string | null; files: readonly File[] }) {
  return setId === null
    ? api.callForm(uploadTrainingPhotosContract, photosForm(files))
    : api.callForm(extendTrainingSetContract, photosForm(files), { params: { id: setId } });
}

export function useUploadTrainingPhotos() {
  const refresh = useRefreshTrainingSets();
  return useMutation({ mutationFn: uploadTrainingPhotos, onSuccess: refresh });
}

export const deleteTrainingPhoto = ({ setId, photoId }: { setId: string; photoId: string }) =>
  api.call(deleteTrainingPhotoContract, { params: { id: setId, photo_id: photoId } });

export function useDeleteTrainingPhoto() {
  const refresh = useRefreshTrainingSets();
  return useMutation({ mutationFn: deleteTrainingPhoto, onSuccess: refresh });
}

export const getTrainingSets = (signal?: AbortSignal) => api.call(listTrainingSetsContract, { signal });

/** The caller's stored sets, newest first: what they uploaded before a reload is still theirs to use. */
export const useTrainingSets = () =>
  useQuery(
    queryOptions({ queryKey: trainingSetsQueryKey, queryFn: ({ signal }) => getTrainingSets(signal) }),
  );

/** Deletes a set and its photos (DELETE /api/training_sets/{id}); the stored list forgets it. */
export function useDeleteTrainingSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(deleteTrainingSetContract, { params: { id } }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData(trainingSetsQueryKey, (old: { sets: TrainingSetView[] } | undefined) =>
        old ? { sets: old.sets.filter((s) => s.id !== id) } : old,
      );
      // Models trained on it stay, no longer pointing at it.
      void queryClient.invalidateQueries({ queryKey: myModelsQueryKey });
    },
  });
}
