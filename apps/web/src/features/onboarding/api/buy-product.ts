import { useMutation } from '@tanstack/react-query';
import { buyProductContract, type BuyProductRequest } from '@lumina/contracts';
import { api } from '@/lib/api-client';

export const buyProduct = ({ productId, request }: { productId: string; request: BuyProductRequest }) =>
  api.call(buyProductContract, { params: { id: productId }, body: request });

/** POST /api/products/{id}/buy: money answers with a checkout to go to, credits with the started purchase. */
export const useBuyProduct = () => useMutation({ mutationFn: buyProduct });
