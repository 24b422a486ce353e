import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';
import { CoinsIcon } from '@/components/ui/icons';
import { useCreditBalance } from '../api/get-credit-balance';

/** The header's balance badge: shown only once the server has answered with a balance (a 401 means signed out). */
export function CreditBalance() {
  const { t, i18n } = useTranslation();
  const balance = useCreditBalance();
  if (!balance.data) return null;
  const value = balance.data.balance;
  return (
    <Link
      to={paths.credits}
      aria-label={t('creditBalance.label', { count: value })}
      data-testid="credit-badge"
      data-balance={value}
      className="inline-flex items-center gap-1.5 rounded-full border border-zinc-200 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 transition-colors hover:border-brand-300 hover:text-brand-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200 dark:hover:border-brand-500/60 dark:hover:text-brand-300"
    >
      <CoinsIcon className="size-4 text-amber-500" />
      <span className="tabular-nums" data-testid="credit-balance">
        {new Intl.NumberFormat(i18n.language).format(value)}
      </span>
      <span className="hidden sm:inline">{t('header.creditsBadge')}</span>
    </Link>
  );
}
