import { useTranslation } from 'react-i18next';
import type { CreditPackageView } from '@lumina/contracts';
import { buttonClass } from '@/components/ui/button-link';
import { useCreditPackages } from '../api/get-credit-packages';
import { usePurchaseCredits } from '../api/purchase-credits';
import { badgeKey, formatCreditsPerUnit, formatPrice } from '@/lib/money';
import { Alert } from '@/components/ui/alert';
import { CreditsPanel } from './credits-panel';

function PackageCard({
  pkg,
  onBuy,
  busy,
  disabled,
}: {
  pkg: CreditPackageView;
  onBuy: () => void;
  busy: boolean;
  disabled: boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const price = formatPrice(pkg.price_cents, pkg.currency, locale);
  const badge = pkg.badge
    ? t(`credits.packages.badges.${badgeKey(pkg.badge)}`, { defaultValue: pkg.badge })
    : null;
  return (
    <li
      data-testid="credit-package"
      data-package-id={pkg.id}
      data-credits={pkg.credits}
      className={`relative flex flex-col gap-4 rounded-3xl border bg-white p-5 shadow-sm dark:bg-zinc-900 ${
        badge
          ? 'border-brand-300 ring-1 ring-brand-300 dark:border-brand-500/60 dark:ring-brand-500/40'
          : 'border-zinc-200 dark:border-zinc-800'
      }`}
    >
      <div className="flex items-start justify-between gap-2">
        <h3 className="text-base font-semibold">{pkg.name}</h3>
        {badge && (
          <span className="shrink-0 rounded-full bg-brand-50 px-2.5 py-1 text-xs font-semibold text-brand-700 ring-1 ring-brand-200 ring-inset dark:bg-brand-500/10 dark:text-brand-300 dark:ring-brand-500/30">
            {badge}
          </span>
        )}
      </div>
      <div>
        <p className="text-3xl font-bold tracking-tight tabular-nums" data-testid="package-price">
          {price}
        </p>
        <p className="mt-1 text-sm font-medium text-zinc-700 dark:text-zinc-300">
          {t('credits.packages.credits', {
            count: pkg.credits,
            formatted: new Intl.NumberFormat(locale).format(pkg.credits),
          })}
        </p>
        <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
          {t('credits.packages.perUnit', {
            value: formatCreditsPerUnit(pkg.credits_per_unit, locale),
            currency: pkg.currency.toUpperCase(),
          })}
        </p>
      </div>
      <button
        type="button"
        onClick={onBuy}
        disabled={disabled}
        aria-label={t('credits.packages.buyLabel', { name: pkg.name, price })}
        className={`${buttonClass(badge ? 'primary' : 'secondary')} mt-auto w-full disabled:cursor-not-allowed disabled:opacity-60`}
      >
        {busy ? t('credits.packages.buying') : t('credits.packages.buy')}
      </button>
    </li>
  );
}

/** The packages on sale as cards; Buy starts a checkout and leaves the app for it. */
export function CreditPackages({ redirect }: { redirect?: (url: string) => void }) {
  const { t } = useTranslation();
  const packages = useCreditPackages();
  const purchase = usePurchaseCredits(redirect ? { redirect } : undefined);
  // The mutation stays pending while the browser navigates away, which keeps every button disabled.
  const pendingId = purchase.isPending || purchase.isSuccess ? purchase.variables : undefined;
  return (
    <CreditsPanel
      name="packages"
      title={t('credits.packages.title')}
      query={packages}
      items={packages.data?.packages}
      emptyText={t('credits.packages.empty')}
      footer={
        purchase.error && (
          <Alert tone="error" inline>
            {purchase.error.message}
          </Alert>
        )
      }
    >
      {(pkgs) => (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {pkgs.map((pkg) => (
            <PackageCard
              key={pkg.id}
              pkg={pkg}
              busy={pendingId === pkg.id}
              disabled={pendingId !== undefined}
              onBuy={() => purchase.mutate(pkg.id)}
            />
          ))}
        </ul>
      )}
    </CreditsPanel>
  );
}
