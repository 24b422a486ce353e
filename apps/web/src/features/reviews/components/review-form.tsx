import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { REVIEW_COMMENT_MAX, ReviewInput, type PendingReview } from '@lumina/contracts';
import type { ReviewBody } from '../api/submit-review';
import { useSubmitReview } from '../api/submit-review';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

export type ReviewFormErrors = { rating?: 'required'; comment?: 'tooLong' };

/** Checks the form against the contract's request schema; returns the body to send, or what is wrong. */
export function validateReview(
  pending: Pick<PendingReview, 'payment_id' | 'product_id'>,
  rating: number | null,
  comment: string,
): { ok: true; body: ReviewBody } | { ok: false; errors: ReviewFormErrors } {
  const errors: ReviewFormErrors = {};
  if (rating === null) errors.rating = 'required';
  if (comment.trim().length > REVIEW_COMMENT_MAX) errors.comment = 'tooLong';
  if (errors.rating || errors.comment) return { ok: false, errors };
  const trimmed = comment.trim();
  const parsed = ReviewInput.safeParse({
    payment_id: pending.payment_id,
    product_id: pending.product_id,
    rating,
    ...(trimmed ? { comment: trimmed } : {}),
  });
  if (!parsed.success) return { ok: false, errors: { rating: 'required' } };
  return { ok: true, body: parsed.data };
}

function Star({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-7" fill={filled ? 'currentColor' : 'none'}>
      <path
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
        d="m12 3 2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9L12 3Z"
      />
    </svg>
  );
}

/** Stars (a native radio group: arrow keys move, space selects) and an optional comment. */
export function ReviewForm({ pending, onDone }: { pending: PendingReview; onDone?: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const submit = useSubmitReview();
  const [rating, setRating] = useState<number | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<ReviewFormErrors>({});
  const shown = hover ?? rating ?? 0;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateReview(pending, rating, comment);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    submit.mutate(checked.body, { onSuccess: () => onDone?.() });
  };
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" data-testid="review-form">
      <fieldset aria-describedby={errors.rating ? `${id}-rating-error` : undefined}>
        <legend className="mb-1 text-sm font-medium">{t('reviews.ratingLabel')}</legend>
        <div className="flex gap-1" onMouseLeave={() => setHover(null)}>
          {[1, 2, 3, 4, 5].map((value) => (
            <label
              key={value}
              onMouseEnter={() => setHover(value)}
              className={`cursor-pointer rounded-lg p-0.5 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${
                value <= shown ? 'text-amber-400' : 'text-zinc-300 dark:text-zinc-600'
              }`}
            >
              <input
                type="radio"
                name={`${id}-rating`}
                value={value}
                checked={rating === value}
                onChange={() => setRating(value)}
                aria-label={t('reviews.star', { count: value })}
                className="sr-only"
              />
              <Star filled={value <= shown} />
            </label>
          ))}
        </div>
        {errors.rating && (
          <p id={`${id}-rating-error`} role="alert" className="mt-1 text-xs text-red-600 dark:text-red-400">
            {t('reviews.ratingRequired')}
          </p>
        )}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-comment`} className="text-sm font-medium">
          {t('reviews.comment')}
        </label>
        <textarea
          id={`${id}-comment`}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          rows={3}
          placeholder={t('reviews.commentPlaceholder')}
          aria-invalid={errors.comment ? true : undefined}
          className="w-full rounded-xl border border-zinc-300 bg-white px-3 py-2 text-sm placeholder:text-zinc-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-zinc-700 dark:bg-zinc-950 dark:placeholder:text-zinc-500"
        />
        {errors.comment && (
          <Alert tone="error" inline size="xs">
            {t('reviews.commentTooLong', { max: REVIEW_COMMENT_MAX })}
          </Alert>
        )}
      </div>
      {submit.error && (
        <Alert tone="error" inline>
          {submit.error.message}
        </Alert>
      )}
      <Button
        look="primary"
        type="submit"
        disabled={submit.isPending}
        className="self-start disabled:opacity-60"
      >
        {submit.isPending ? t('reviews.submitting') : t('reviews.submit')}
      </Button>
    </form>
  );
}
