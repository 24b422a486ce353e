import { useTranslation } from 'react-i18next';
import type { ProductView } from '@lumina/contracts';
import { formatPrice } from '@/lib/money';

/** A product's price in words: its money price, its credit price, or both ("$29.00 or 300 credits"). */
export function useProductPrice() {
  const { t, i18n } = useTranslation();
  return (product: Pick<ProductView, 'price' | 'price_credits'>) =>
    [
      product.price && formatPrice(product.price.amount_cents, product.price.currency, i18n.language),
      product.price_credits !== null && t('onboarding.product.credits', { count: product.price_credits }),
    ]
      .filter(Boolean)
      .join(` ${t('onboarding.product.or')} `);
}

/** The onboarding product: sample images, name, what it delivers, its price and what buyers thought of it. */
export function ProductOffer({ product }: { product: ProductView }) {
  const { t, i18n } = useTranslation();
  const price = useProductPrice();
  const average = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
    product.review.average,
  );
  return (
    <article
      className="flex min-w-0 flex-col gap-4"
      data-testid="onboarding-product"
      data-product={product.id}
    >
      {product.cover_urls.length > 0 && (
        <ul
          aria-label={t('onboarding.product.samplesLabel', { name: product.name })}
          className="grid grid-cols-3 gap-2"
        >
          {product.cover_urls.slice(0, 6).map((url, i) => (
            <li key={url} className="aspect-square overflow-hidden rounded-xl bg-zinc-100 dark:bg-zinc-800">
              <img
                src={url}
                alt={t('onboarding.product.sampleAlt', { n: i + 1, name: product.name })}
                className="size-full object-cover"
                loading="lazy"
              />
            </li>
          ))}
        </ul>
      )}
      <div className="min-w-0">
        <h3 className="text-lg font-semibold">
          {product.name}
          {product.badge && (
            <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 align-middle text-xs font-semibold text-brand-800 dark:bg-brand-500/15 dark:text-brand-200">
              {product.badge}
            </span>
          )}
        </h3>
        <p className="mt-1 text-sm text-pretty text-zinc-600 dark:text-zinc-400">{product.description}</p>
      </div>
      <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-semibold">{t('onboarding.product.price')}</dt>
          <dd data-testid="onboarding-product-price" className="tabular-nums">
            {price(product)}
            {product.images !== null && (
              <span className="text-zinc-600 dark:text-zinc-400">
                {' · '}
                {t('onboarding.product.images', { count: product.images })}
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt className="font-semibold">{t('onboarding.product.reviews')}</dt>
          <dd data-testid="onboarding-product-reviews">
            {product.review.count > 0
              ? t('onboarding.product.rating', { average, count: product.review.count })
              : t('onboarding.product.noReviews')}
          </dd>
        </div>
      </dl>
    </article>
  );
}
