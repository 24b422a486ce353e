import { useMutation } from '@tanstack/react-query';
import {
  deleteTrainingPhotoContract,
  extendTrainingSetContract,
  uploadTrainingPhotosContract,
} from '@lumina/contracts';
import { api } from '@/lib/api-client';

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

export const useUploadTrainingPhotos = () => useMutation({ mutationFn: uploadTrainingPhotos });

export const deleteTrainingPhoto = ({ setId, photoId }: { setId: string; photoId: string }) =>
  api.call(deleteTrainingPhotoContract, { params: { id: setId, photo_id: photoId } });

export const useDeleteTrainingPhoto = () => useMutation({ mutationFn: deleteTrainingPhoto });
