import { useTranslation } from 'react-i18next';
import type { PurchaseView } from '@lumina/contracts';
import { formatPrice } from '@/lib/money';
import { AttachPhotos } from './attach-photos';
import { DeliveredImages } from './delivered-images';
import { PurchaseStatus } from './purchase-status';

/** One purchase: what, when and for how much; where it is; and what the buyer can do with it now. */
export function PurchaseCard({ purchase }: { purchase: PurchaseView }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const number = new Intl.NumberFormat(locale);
  const paid =
    purchase.paid_with === 'money' && purchase.amount_cents !== null && purchase.currency
      ? formatPrice(purchase.amount_cents, purchase.currency, locale)
      : purchase.credits_spent !== null
        ? t('credits.packages.credits', {
            count: purchase.credits_spent,
            formatted: number.format(purchase.credits_spent),
          })
        : null;
  const headingId = `purchase-${purchase.id}`;
  return (
    <li
      data-testid="purchase"
      data-purchase-id={purchase.id}
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-4 rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 id={headingId} className="text-lg font-semibold">
          {purchase.product_name}
        </h2>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">
          {new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(purchase.created_at))}
          {paid && ` · ${paid}`}
        </p>
      </div>
      <PurchaseStatus purchase={purchase} />
      {purchase.kind === 'credits' && purchase.credits_added !== null && (
        <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="credits-added">
          {t('products.creditsAdded', {
            count: purchase.credits_added,
            formatted: number.format(purchase.credits_added),
          })}
        </p>
      )}
      {purchase.status === 'waiting_for_photos' && <AttachPhotos purchase={purchase} />}
      {purchase.status === 'ready' && purchase.kind === 'photo_shoot' && (
        <DeliveredImages purchase={purchase} />
      )}
    </li>
  );
}
