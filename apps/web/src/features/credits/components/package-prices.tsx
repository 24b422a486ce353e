import { useTranslation } from 'react-i18next';
import { useCreditPackages } from '../api/get-credit-packages';
import { formatPrice } from '@/lib/money';

/** The credit packages on sale with their prices (read-only; buying happens on the Credits page). */
export function PackagePrices() {
  const { t, i18n } = useTranslation();
  const packages = useCreditPackages();
  const list = packages.data?.packages ?? [];
  if (packages.isPending)
    return <div className="h-32 animate-pulse rounded-3xl bg-zinc-100 dark:bg-zinc-900" aria-hidden="true" />;
  if (list.length === 0) return null;
  return (
    <ul className="grid gap-4 sm:grid-cols-3" data-testid="package-prices">
      {list.map((pkg) => (
        <li
          key={pkg.id}
          data-testid="package-price"
          className="flex flex-col gap-1 rounded-2xl border border-zinc-200 bg-white p-5 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <span className="flex items-center justify-between gap-2 font-semibold">
            {pkg.name}
            {pkg.badge && (
              <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 dark:bg-brand-500/15 dark:text-brand-300">
                {t(`credits.packages.badges.${pkg.badge.replace(/\s+/g, '_')}`, { defaultValue: pkg.badge })}
              </span>
            )}
          </span>
          <span className="text-2xl font-bold tabular-nums">
            {formatPrice(pkg.price_cents, pkg.currency, i18n.language)}
          </span>
          <span className="text-sm text-zinc-600 dark:text-zinc-400">
            {t('credits.packages.credits', {
              count: pkg.credits,
              formatted: new Intl.NumberFormat(i18n.language).format(pkg.credits),
            })}
          </span>
        </li>
      ))}
    </ul>
  );
}
