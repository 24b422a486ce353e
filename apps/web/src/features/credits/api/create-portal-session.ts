import { useMutation } from '@tanstack/react-query';
import { customerPortalContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const createPortalSession = () => api.call(customerPortalContract);

/** Opens the Stripe Billing portal for the signed-in user. */
export function useCreatePortalSession({ redirect = (url: string) => window.location.assign(url) } = {}) {
  return useMutation({
    mutationFn: createPortalSession,
    onSuccess: (session) => redirect(session.url),
  });
}
