import { useTranslation } from 'react-i18next';
import { CoinsIcon } from '@/components/ui/icons';
import { useCreditBalance } from '../api/get-credit-balance';

/** The balance, large, at the top of the Credits page (same query as the header badge). */
export function BalanceCard({ children }: { children?: React.ReactNode }) {
  const { t, i18n } = useTranslation();
  const balance = useCreditBalance();
  const value = balance.data?.balance;
  return (
    <section
      aria-labelledby="balance-heading"
      className="flex flex-col gap-4 rounded-3xl border border-zinc-200 bg-white p-5 shadow-sm sm:flex-row sm:items-center sm:justify-between sm:p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center gap-4">
        <div className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-amber-100 text-amber-600 dark:bg-amber-500/15 dark:text-amber-300">
          <CoinsIcon className="size-6" />
        </div>
        <div>
          <h2 id="balance-heading" className="text-sm font-medium text-zinc-500 dark:text-zinc-400">
            {t('credits.balance.title')}
          </h2>
          <p
            className="text-2xl font-bold tabular-nums"
            data-testid="credits-page-balance"
            data-balance={value}
          >
            {value === undefined
              ? t('header.creditsUnknown')
              : t('credits.balance.value', {
                  count: value,
                  formatted: new Intl.NumberFormat(i18n.language).format(value),
                })}
          </p>
          <p className="text-xs text-zinc-500 dark:text-zinc-400">{t('credits.balance.hint')}</p>
        </div>
      </div>
      {children}
    </section>
  );
}
