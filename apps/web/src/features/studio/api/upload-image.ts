import { uploadImageContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** Stores a picked file as one of the user's images (kind "upload"), for the tools that take an image id. */
export function uploadImage(file: File, signal?: AbortSignal) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.callForm(uploadImageContract, form, { signal });
}
