import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { ButtonLink } from '@/components/ui/button-link';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useMyProducts } from '../api/get-my-products';
import { PurchaseCard } from './purchase-card';

/** What the person bought, newest first, each with its live state; refreshed while any is in progress. */
export function MyProductsView() {
  const { t } = useTranslation();
  const purchases = useMyProducts();
  if (purchases.isPending) return <LoadingBlock />;
  if (purchases.isError)
    return <QueryError error={purchases.error} onRetry={() => void purchases.refetch()} />;
  if (purchases.data.length === 0)
    return (
      <div
        data-testid="my-products-empty"
        className="flex flex-col items-center gap-3 rounded-3xl border border-dashed border-zinc-300 px-6 py-16 text-center dark:border-zinc-700"
      >
        <p className="font-semibold">{t('products.mine.emptyTitle')}</p>
        <p className="max-w-sm text-sm text-zinc-600 dark:text-zinc-400">{t('products.mine.emptyBody')}</p>
        <ButtonLink to={paths.products}>{t('products.mine.browse')}</ButtonLink>
      </div>
    );
  return (
    <ul className="flex flex-col gap-6" data-testid="my-products">
      {purchases.data.map((purchase) => (
        <PurchaseCard key={purchase.id} purchase={purchase} />
      ))}
    </ul>
  );
}
