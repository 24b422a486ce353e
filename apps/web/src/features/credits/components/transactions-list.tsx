import { useTranslation } from 'react-i18next';
import type { PaymentStatus } from '@lumina/contracts';
import { useCreditPackages } from '../api/get-credit-packages';
import { useTransactions } from '../api/get-transactions';
import { formatPrice } from '@/lib/money';
import { CreditsPanel } from './credits-panel';

const statusTone: Record<PaymentStatus, string> = {
  pending: 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300',
  paid: 'bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300',
  failed: 'bg-red-100 text-red-700 dark:bg-red-500/15 dark:text-red-300',
  cancelled: 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400',
  expired: 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400',
  refunded: 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300',
};

/** The user's payments: amount, status, package, credits, time and the receipt when Stripe has one. */
export function TransactionsList() {
  const { t, i18n } = useTranslation();
  const transactions = useTransactions();
  const packages = useCreditPackages();
  const locale = i18n.language;
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const packageName = (id: string) => packages.data?.packages.find((p) => p.id === id)?.name ?? id;
  return (
    <CreditsPanel
      name="transactions"
      title={t('credits.transactions.title')}
      query={transactions}
      items={transactions.data?.payments}
      emptyText={t('credits.transactions.empty')}
    >
      {(payments) => (
        <ul className="divide-y divide-zinc-100 overflow-hidden rounded-3xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {payments.map((payment) => (
            <li
              key={payment.id}
              data-testid="transaction"
              data-status={payment.status}
              className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm"
            >
              <div className="min-w-0 flex-1">
                <p className="font-medium">{packageName(payment.package_id)}</p>
                <p className="text-xs text-zinc-500 dark:text-zinc-400">
                  <time dateTime={payment.created_at}>{time.format(new Date(payment.created_at))}</time>
                  <span aria-hidden="true"> · </span>
                  {t('credits.transactions.credits', {
                    count: payment.credits,
                    formatted: new Intl.NumberFormat(locale).format(payment.credits),
                  })}
                </p>
              </div>
              <span
                className={`rounded-full px-2.5 py-1 text-xs font-semibold ${statusTone[payment.status]}`}
              >
                {t(`credits.transactions.status.${payment.status}`)}
              </span>
              <span className="w-24 text-right font-semibold tabular-nums">
                {formatPrice(payment.amount_cents, payment.currency, locale)}
              </span>
              {payment.receipt_url && (
                <a
                  href={payment.receipt_url}
                  target="_blank"
                  rel="noreferrer"
                  className="text-xs font-semibold text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
                >
                  {t('credits.transactions.receipt')}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </CreditsPanel>
  );
}
