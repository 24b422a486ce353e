import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LoadingBlock } from '@/components/ui/query-states';
import { useProducts } from '../api/get-products';
import { productListOutcome } from '../utils/product-list';
import { ProductOffer } from './product-offer';

/** The onboarding product (the first of GET /api/products), or why there is none, as the spec words it. */
export function useOnboardingProduct() {
  const { t } = useTranslation();
  const query = useProducts();
  const { products, message } = productListOutcome(query, t('onboarding.product.fetchFailed'));
  return { query, product: products[0] ?? null, message };
}

/** Step 3: the onboarding product with its price, sample images and review summary. */
export function ProductStep({
  onBack,
  onContinue,
  skip,
}: {
  onBack: () => void;
  onContinue: () => void;
  skip: ReactNode;
}) {
  const { t } = useTranslation();
  const { query, product, message } = useOnboardingProduct();
  return (
    <div className="flex flex-col gap-4">
      {query.isPending ? (
        <LoadingBlock className="py-10" />
      ) : message !== null ? (
        <Alert tone="error" testId="onboarding-products-error">
          {message}
        </Alert>
      ) : product ? (
        <ProductOffer product={product} />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="onboarding-no-product">
          {t('onboarding.product.none')}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <Button look="secondary" onClick={onBack}>
          {t('onboarding.back')}
        </Button>
        <Button onClick={onContinue} disabled={!product} data-testid="onboarding-continue">
          {t('onboarding.product.continue')}
        </Button>
        {skip}
      </div>
    </div>
  );
}
