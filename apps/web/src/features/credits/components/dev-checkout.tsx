import { useTranslation } from 'react-i18next';
import { AlertIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useDevCheckoutAction, useDevCheckoutSession } from '../api/dev-checkout';
import { formatPrice } from '@/lib/money';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * The development stand-in for Stripe Checkout (only when the server has no Stripe key): shows the package
 * and amount, and Pay / Cancel send the browser where the server says next.
 */
export function DevCheckout({
  sessionId,
  redirect = (url: string) => window.location.assign(url),
}: {
  sessionId: string;
  redirect?: (url: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const session = useDevCheckoutSession(sessionId);
  const action = useDevCheckoutAction(sessionId);
  const run = (kind: 'complete' | 'cancel') =>
    action.mutate(kind, { onSuccess: (result) => redirect(result.redirect_url) });
  const busy = action.isPending || action.isSuccess;
  return (
    <section
      aria-labelledby="dev-checkout-heading"
      data-testid="dev-checkout"
      className="mx-auto flex w-full max-w-md flex-col gap-5 rounded-3xl border-2 border-dashed border-amber-400 bg-white p-6 shadow-sm dark:border-amber-500/60 dark:bg-zinc-900"
    >
      <div className="flex items-start gap-3 rounded-2xl bg-amber-50 p-3 text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
        <AlertIcon className="mt-0.5 size-5 shrink-0" />
        <div>
          <h1 id="dev-checkout-heading" className="font-semibold">
            {t('credits.devCheckout.title')}
          </h1>
          <p className="mt-1 text-sm">{t('credits.devCheckout.body')}</p>
        </div>
      </div>
      {!sessionId ? (
        <Alert tone="error" inline>
          {t('credits.devCheckout.missingSession')}
        </Alert>
      ) : session.isPending ? (
        <Spinner />
      ) : session.isError ? (
        <Alert tone="error" inline>
          {t('credits.devCheckout.loadFailed')}
        </Alert>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-y-2 text-sm">
            <dt className="text-zinc-500 dark:text-zinc-400">{t('credits.devCheckout.package')}</dt>
            <dd className="text-right font-medium" data-testid="dev-checkout-package">
              {session.data.package_name}
            </dd>
            <dt className="text-zinc-500 dark:text-zinc-400">{t('credits.devCheckout.credits')}</dt>
            <dd className="text-right font-medium tabular-nums">
              {new Intl.NumberFormat(i18n.language).format(session.data.credits)}
            </dd>
            <dt className="text-zinc-500 dark:text-zinc-400">{t('credits.devCheckout.amount')}</dt>
            <dd className="text-right text-lg font-bold tabular-nums" data-testid="dev-checkout-amount">
              {formatPrice(session.data.amount_cents, session.data.currency, i18n.language)}
            </dd>
          </dl>
          {session.data.status === 'expired' ? (
            <p
              role="status"
              data-testid="dev-checkout-expired"
              className="text-sm text-zinc-600 dark:text-zinc-400"
            >
              {t('credits.devCheckout.expired')}
            </p>
          ) : (
            session.data.status !== 'pending' && (
              <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
                {t('credits.devCheckout.notOpen', {
                  status: t(`credits.transactions.status.${session.data.status}`).toLowerCase(),
                })}
              </p>
            )
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button
              look="secondary"
              type="button"
              onClick={() => run('cancel')}
              disabled={busy || session.data.status !== 'pending'}
              className="disabled:opacity-60"
            >
              {t('credits.devCheckout.cancel')}
            </Button>
            <Button
              look="primary"
              type="button"
              data-testid="dev-checkout-pay"
              onClick={() => run('complete')}
              disabled={busy || session.data.status !== 'pending'}
              className="disabled:opacity-60"
            >
              {action.isPending && action.variables === 'complete'
                ? t('credits.devCheckout.paying')
                : t('credits.devCheckout.pay', {
                    price: formatPrice(session.data.amount_cents, session.data.currency, i18n.language),
                  })}
            </Button>
          </div>
          {action.error && (
            <Alert tone="error" inline>
              {action.error.message}
            </Alert>
          )}
        </>
      )}
    </section>
  );
}
