import { useTranslation } from 'react-i18next';

/** A product's ratings in one line: five stars filled to the average, and how many people rated it. */
export function ReviewSummary({ average, count }: { average: number; count: number }) {
  const { t, i18n } = useTranslation();
  if (count === 0)
    return <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('products.noReviews')}</p>;
  const value = new Intl.NumberFormat(i18n.language, {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  }).format(average);
  const label = t('products.rating', { value, count });
  return (
    <p
      className="flex items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400"
      data-testid="product-rating"
    >
      <span aria-hidden="true" className="relative inline-block text-zinc-300 dark:text-zinc-600">
        ★★★★★
        <span
          className="absolute inset-y-0 left-0 overflow-hidden text-amber-500"
          style={{ width: `${Math.min(100, Math.max(0, (average / 5) * 100))}%` }}
        >
          ★★★★★
        </span>
      </span>
      <span className="sr-only">{label}</span>
      <span aria-hidden="true">
        {value} · {t('products.reviews', { count })}
      </span>
    </p>
  );
}
