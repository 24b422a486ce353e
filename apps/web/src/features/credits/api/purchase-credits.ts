import { useMutation } from '@tanstack/react-query';
import { purchaseCreditsContract } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const purchaseCredits = (packageId: string) =>
  api.call(purchaseCreditsContract, { body: { package_id: packageId } });

/** Starts a checkout and sends the browser to it (Stripe Checkout, or the development checkout page). */
export function usePurchaseCredits({ redirect = (url: string) => window.location.assign(url) } = {}) {
  return useMutation({
    mutationFn: purchaseCredits,
    onSuccess: (session) => redirect(session.url),
  });
}
