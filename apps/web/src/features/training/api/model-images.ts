import { useQuery } from '@tanstack/react-query';
import { imagesByModelContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/** The newest images the caller made with one model (GET /api/images/models/{id}). */
export const useModelImages = (modelId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['training', 'model-images', modelId],
    queryFn: ({ signal }) => api.call(imagesByModelContract, { params: { id: modelId }, signal }),
    enabled,
  });
