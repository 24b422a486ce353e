import { useMutation, useQueryClient } from '@tanstack/react-query';
import { buyProductContract, type BuyProductRequest, type ProductView } from '@lumina/contracts';
import { api, ApiError } from '@/lib/api-client';
import { myProductsQueryKey } from './get-my-products';
import { productsQueryKey } from './get-products';

export interface BuyInput {
  product: ProductView;
  payWith: 'money' | 'credits';
  /** A photo shoot's photos, when already chosen (otherwise the purchase waits for them). */
  setId?: string;
}

/** The request for what the buyer was shown: its price goes along, so a changed price is refused, not charged. */
export function buyRequest({ product, payWith, setId }: BuyInput): BuyProductRequest {
  return {
    pay_with: payWith,
    ...(setId ? { set_id: setId } : {}),
    ...(payWith === 'money' && product.price ? { expected_price: product.price } : {}),
    ...(payWith === 'credits' && product.price_credits !== null
      ? { expected_credits: product.price_credits }
      : {}),
  };
}

export const buyProduct = (input: BuyInput) =>
  api.call(buyProductContract, { params: { id: input.product.id }, body: buyRequest(input) });

/** The server refused because the price changed since the page loaded (409): show the new one, ask again. */
export const isPriceChange = (error: unknown) => error instanceof ApiError && error.status === 409;

/**
 * Buys a product. With money the browser goes to the checkout; with credits the purchase has started
 * and My products shows it. A 409 refetches the list, so the card shows the server's price.
 */
export function useBuyProduct({
  redirect = (url: string) => window.location.assign(url),
  onStarted,
}: {
  redirect?: (url: string) => void;
  onStarted?: () => void;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: buyProduct,
    onSuccess: (result) => {
      if (result.checkout) return redirect(result.checkout.url);
      // Paid with credits: the balance and the purchases changed.
      void queryClient.invalidateQueries({ queryKey: ['credits'] });
      void queryClient.invalidateQueries({ queryKey: myProductsQueryKey });
      onStarted?.();
    },
    onError: (error) => {
      if (isPriceChange(error)) void queryClient.invalidateQueries({ queryKey: productsQueryKey });
    },
  });
}
