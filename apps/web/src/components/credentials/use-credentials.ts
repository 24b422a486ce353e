import { useQuery } from '@tanstack/react-query';
import { imageCredentialsContract, videoCredentialsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

/**
 * An image's or video's C2PA content credentials as the server reads them back from the stored file.
 * Their own query root: the file never changes once stored, so they are read once, and refreshing or
 * cancelling the image or video lists (a save, a publish, a finished job) must not read them again or
 * leave them pending. Signing out drops them with the person's other data.
 */
export const useCredentials = (kind: 'image' | 'video', id: string, enabled: boolean) =>
  useQuery({
    queryKey: ['credentials', kind, id],
    // No abort signal: a read that has started is finished and kept even when the panel closes first
    // (the server has done the work, and reopening shows it at once), never left as a failed request.
    queryFn: () =>
      api.call(kind === 'image' ? imageCredentialsContract : videoCredentialsContract, { params: { id } }),
    enabled,
    staleTime: Infinity,
  });
