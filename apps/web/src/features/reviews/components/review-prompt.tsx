import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '@/components/ui/icons';
import { usePendingReviews } from '../api/get-pending-reviews';
import { useDismissedReviews } from '../hooks/use-dismissed-reviews';
import { ReviewForm } from './review-form';

/**
 * Asks for a review of the oldest purchase that has none yet. "Not now" hides it for this browsing session;
 * it comes back on the next visit until the review is sent.
 */
export function ReviewPrompt() {
  const { t } = useTranslation();
  const pending = usePendingReviews();
  const { dismissed, dismiss } = useDismissedReviews();
  const [thanked, setThanked] = useState(false);
  const next = pending.data?.pending.find((p) => !dismissed.includes(p.payment_id));
  if (!next)
    return thanked ? (
      <p
        role="status"
        data-testid="review-thanks"
        className="rounded-2xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-800 ring-1 ring-emerald-200 ring-inset dark:bg-emerald-500/10 dark:text-emerald-200 dark:ring-emerald-500/30"
      >
        {t('reviews.thanks')}
      </p>
    ) : null;
  return (
    <section
      aria-labelledby="review-prompt-heading"
      data-testid="review-prompt"
      data-payment-id={next.payment_id}
      className="relative rounded-3xl border border-brand-200 bg-brand-50/60 p-5 shadow-sm dark:border-brand-500/30 dark:bg-brand-500/5"
    >
      <button
        type="button"
        onClick={() => dismiss(next.payment_id)}
        aria-label={t('reviews.dismiss')}
        title={t('reviews.dismiss')}
        data-testid="review-dismiss"
        className="absolute top-3 right-3 inline-flex size-8 items-center justify-center rounded-full text-zinc-500 hover:bg-white hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-white"
      >
        <CloseIcon />
      </button>
      <h2 id="review-prompt-heading" className="pr-10 text-lg font-semibold">
        {t('reviews.title')}
      </h2>
      <p className="mt-1 mb-4 text-sm text-zinc-600 dark:text-zinc-400">
        {t('reviews.body', { product: next.product_name })}
      </p>
      <ReviewForm key={next.payment_id} pending={next} onDone={() => setThanked(true)} />
    </section>
  );
}
