import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { ButtonLink } from '@/components/ui/button-link';
import { Spinner } from '@/components/ui/spinner';
import { useProcessPayment } from '../api/process-payment';

/** The success page body: confirms the checkout once, then shows the credits added and the new balance. */
export function PaymentSuccess({ sessionId }: { sessionId: string }) {
  const { t, i18n } = useTranslation();
  const result = useProcessPayment(sessionId);
  const number = new Intl.NumberFormat(i18n.language);
  const card =
    'flex flex-col items-center gap-3 rounded-3xl border border-zinc-200 bg-white px-6 py-10 text-center shadow-sm dark:border-zinc-800 dark:bg-zinc-900';
  if (!sessionId)
    return (
      <div role="alert" className={card}>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('credits.success.missingSession')}</p>
        <ButtonLink to={paths.credits} variant="secondary">
          {t('credits.success.back')}
        </ButtonLink>
      </div>
    );
  if (result.isPending)
    return (
      <div className={card} aria-busy="true">
        <Spinner />
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('credits.success.processing')}</p>
      </div>
    );
  if (result.isError)
    return (
      <div role="alert" className={card}>
        <p className="font-semibold">{t('credits.success.failed')}</p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{result.error.message}</p>
        <ButtonLink to={paths.credits} variant="secondary">
          {t('credits.success.back')}
        </ButtonLink>
      </div>
    );
  const { status, credits_added: added, balance } = result.data;
  return (
    <div className={card} data-testid="payment-result" data-status={status}>
      <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="credits-added">
        {status === 'pending'
          ? t('credits.success.pending')
          : added > 0
            ? t('credits.success.added', { count: added, formatted: number.format(added) })
            : t('credits.success.alreadyAdded')}
      </p>
      <div>
        <p className="text-xs font-medium text-zinc-500 uppercase dark:text-zinc-400">
          {t('credits.success.newBalance')}
        </p>
        <p className="text-4xl font-bold tabular-nums" data-testid="new-balance">
          {number.format(balance)}
        </p>
      </div>
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <ButtonLink to={paths.generate}>{t('credits.success.generate')}</ButtonLink>
        <ButtonLink to={paths.credits} variant="secondary">
          {t('credits.success.back')}
        </ButtonLink>
      </div>
    </div>
  );
}
