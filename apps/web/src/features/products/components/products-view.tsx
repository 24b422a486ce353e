import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ProductView } from '@lumina/contracts';
import { paths } from '@/config/paths';
import { useProductSession } from '@/lib/auth';
import { authUrlFor } from '@/lib/supertokens-config';
import { LoadingBlock } from '@/components/ui/query-states';
import { isPriceChange, useBuyProduct } from '../api/buy-product';
import { useProducts } from '../api/get-products';
import { ProductCard, type PayWith } from './product-card';

/**
 * Every product on sale as a card. Buying needs a session: a signed-out visitor signs in first and comes
 * back here. Money goes to the checkout; credits start the purchase at once and My products shows it
 * (a photo shoot bought without photos waits there for them).
 */
export function ProductsView({ redirect }: { redirect?: (url: string) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Buying is a product call: signed out, or with a second factor still pending, sign-in comes first.
  const canBuy = useProductSession().userId !== null;
  const list = useProducts();
  const buy = useBuyProduct({
    ...(redirect ? { redirect } : {}),
    onStarted: () => void navigate(paths.myProducts),
  });
  const [attempt, setAttempt] = useState<{ id: string; payWith: PayWith } | null>(null);
  // The mutation stays pending while the browser leaves for the checkout, which keeps every button disabled.
  const busy = buy.isPending || (buy.isSuccess && buy.data.checkout !== null);

  const onBuy = (product: ProductView, payWith: PayWith) => {
    if (!canBuy) {
      void navigate(authUrlFor(paths.products));
      return;
    }
    setAttempt({ id: product.id, payWith });
    buy.mutate({ product, payWith });
  };

  if (list.isPending) return <LoadingBlock />;
  return (
    <div className="flex flex-col gap-6">
      {list.failed && (
        <div
          role="alert"
          data-testid="products-error"
          className="rounded-2xl bg-red-50 p-6 text-sm text-red-900 dark:bg-red-950/40 dark:text-red-100"
        >
          {list.error ?? t('products.failed')}{' '}
          <button type="button" onClick={() => void list.refetch()} className="font-semibold underline">
            {t('errors.retry')}
          </button>
        </div>
      )}
      {!list.failed && list.products.length === 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="products-empty">
          {t('products.empty')}
        </p>
      )}
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="product-list">
        {list.products.map((product) => {
          const mine = attempt?.id === product.id;
          return (
            <ProductCard
              key={product.id}
              product={product}
              onBuy={(payWith) => onBuy(product, payWith)}
              buying={mine && busy ? attempt.payWith : null}
              disabled={busy}
              error={
                mine && buy.isError
                  ? isPriceChange(buy.error)
                    ? `${buy.error.message} ${t('products.priceChanged')}`
                    : buy.error.message
                  : null
              }
            />
          );
        })}
      </ul>
    </div>
  );
}
