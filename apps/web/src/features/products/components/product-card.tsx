import { useTranslation } from 'react-i18next';
import type { ProductView } from '@lumina/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { badgeKey, formatPrice } from '@/lib/money';
import { ReviewSummary } from './review-summary';

export type PayWith = 'money' | 'credits';

/**
 * One product: its cover and samples, what it delivers, its price(s) and buy buttons. A credit package
 * is sold for money only; a photo shoot for money, credits or both, as the operator priced it.
 */
export function ProductCard({
  product,
  onBuy,
  buying,
  disabled,
  error,
}: {
  product: ProductView;
  onBuy: (payWith: PayWith) => void;
  /** Which buy button is waiting for the server, if any. */
  buying: PayWith | null;
  disabled: boolean;
  /** Why the last attempt to buy this product was refused (a changed price, too few credits…). */
  error: string | null;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const number = new Intl.NumberFormat(locale);
  const price = product.price
    ? formatPrice(product.price.amount_cents, product.price.currency, locale)
    : null;
  const credits = product.kind === 'photo_shoot' ? product.price_credits : null;
  const badge = product.badge
    ? t(`credits.packages.badges.${badgeKey(product.badge)}`, { defaultValue: product.badge })
    : null;
  const [cover, ...samples] = product.cover_urls;
  const headingId = `product-${product.id}-name`;
  return (
    <li
      data-testid="product-card"
      data-product-id={product.id}
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col overflow-hidden rounded-3xl border border-zinc-200 bg-white shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      {cover && (
        <div className="relative aspect-[4/3] overflow-hidden bg-zinc-100 dark:bg-zinc-800">
          <img
            src={cover}
            alt={t('products.coverAlt', { name: product.name })}
            loading="lazy"
            className="size-full object-cover"
          />
          {badge && (
            <span className="absolute top-3 left-3 rounded-full bg-white/90 px-2.5 py-1 text-xs font-semibold text-brand-700 shadow-sm dark:bg-zinc-900/90 dark:text-brand-300">
              {badge}
            </span>
          )}
        </div>
      )}
      <div className="flex flex-1 flex-col gap-4 p-5">
        <div className="flex flex-col gap-1">
          <h2 id={headingId} className="text-lg font-semibold">
            {product.name}
          </h2>
          {!cover && badge && (
            <span className="text-xs font-semibold text-brand-700 dark:text-brand-300">{badge}</span>
          )}
          <ReviewSummary average={product.review.average} count={product.review.count} />
        </div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{product.description}</p>
        {samples.length > 0 && (
          <ul className="grid grid-cols-3 gap-2" aria-label={t('products.samples', { name: product.name })}>
            {samples.map((url, index) => (
              <li key={url}>
                <img
                  src={url}
                  alt={t('products.sampleAlt', { name: product.name, n: index + 2 })}
                  loading="lazy"
                  className="aspect-square w-full rounded-xl object-cover"
                />
              </li>
            ))}
          </ul>
        )}
        <p className="text-sm font-medium text-zinc-700 dark:text-zinc-300" data-testid="product-delivers">
          {product.kind === 'photo_shoot' && product.images !== null
            ? t('products.images', { count: product.images, formatted: number.format(product.images) })
            : product.credits !== null
              ? t('credits.packages.credits', {
                  count: product.credits,
                  formatted: number.format(product.credits),
                })
              : null}
        </p>
        <div className="mt-auto flex flex-col gap-2">
          <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            {price && (
              <span className="text-2xl font-bold tracking-tight tabular-nums" data-testid="product-price">
                {price}
              </span>
            )}
            {credits !== null && (
              <span
                className="text-sm font-semibold text-zinc-600 dark:text-zinc-300"
                data-testid="product-credits"
              >
                {price
                  ? t('products.orCredits', { count: credits, formatted: number.format(credits) })
                  : t('credits.packages.credits', { count: credits, formatted: number.format(credits) })}
              </span>
            )}
          </p>
          {error && (
            <Alert tone="error" inline testId="product-error">
              {error}
            </Alert>
          )}
          <div className="flex flex-wrap gap-2">
            {price && (
              <Button
                onClick={() => onBuy('money')}
                disabled={disabled}
                aria-label={t('products.buyLabel', { name: product.name, price })}
                className="flex-1 whitespace-nowrap"
              >
                {buying === 'money' ? t('products.buying') : t('products.buy', { price })}
              </Button>
            )}
            {credits !== null && (
              <Button
                look="secondary"
                onClick={() => onBuy('credits')}
                disabled={disabled}
                aria-label={t('products.buyCreditsLabel', {
                  name: product.name,
                  formatted: number.format(credits),
                })}
                className="flex-1 whitespace-nowrap"
              >
                {buying === 'credits'
                  ? t('products.buying')
                  : t('products.buyCredits', { count: credits, formatted: number.format(credits) })}
              </Button>
            )}
          </div>
        </div>
      </div>
    </li>
  );
}
