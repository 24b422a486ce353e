import { useTranslation } from 'react-i18next';

/** Shown on /credits when a checkout comes back cancelled (`?checkout=cancelled`): nothing was charged. */
export function CheckoutCancelledNotice() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      data-testid="checkout-cancelled"
      className="rounded-2xl bg-zinc-100 px-4 py-3 text-sm text-zinc-700 ring-1 ring-zinc-200 ring-inset dark:bg-zinc-800/60 dark:text-zinc-200 dark:ring-zinc-700"
    >
      <p className="font-semibold">{t('credits.cancel.title')}</p>
      <p className="mt-0.5">{t('credits.cancel.body')}</p>
    </div>
  );
}
