import { useTranslation } from 'react-i18next';
import { useReviewSummary } from '../api/get-review-summary';

/** The overall average of every product's reviews, weighted by how many each has; null when none. */
export function overallAverage(products: readonly { average: number; count: number }[]) {
  const count = products.reduce((n, p) => n + p.count, 0);
  if (count === 0) return null;
  return { average: products.reduce((sum, p) => sum + p.average * p.count, 0) / count, count };
}

/** "4.6 out of 5 from 23 reviews", with stars; nothing until there is a review. */
export function AverageRating() {
  const { t, i18n } = useTranslation();
  const summary = useReviewSummary();
  const overall = summary.data ? overallAverage(summary.data.products) : null;
  if (!overall) return null;
  const value = new Intl.NumberFormat(i18n.language, {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  }).format(overall.average);
  const full = Math.round(overall.average);
  return (
    <p
      className="flex items-center justify-center gap-2 text-sm text-zinc-700 dark:text-zinc-300"
      data-testid="average-rating"
    >
      <span aria-hidden="true" className="tracking-tight text-amber-600 dark:text-amber-400">
        {'★'.repeat(full)}
        <span className="text-zinc-400 dark:text-zinc-600">{'★'.repeat(5 - full)}</span>
      </span>
      <span>{t('landing.rating', { value, count: overall.count })}</span>
    </p>
  );
}
