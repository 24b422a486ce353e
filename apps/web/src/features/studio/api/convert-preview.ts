import { convertPreviewContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** A JPEG preview (at most 1024 px) of a file the browser cannot show itself (HEIC, TIFF, AVIF, a huge PNG). */
export function convertPreview(file: File, signal?: AbortSignal): Promise<Blob> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.callFormForBlob(convertPreviewContract, form, { signal });
}
