import type { BreakerState, OperatorVendor } from '@lumina/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LoadingBlock, QueryError } from '@/components/ui/query-states';
import { useResetVendor, useVendors } from '../api/vendors';

const stateTone: Record<BreakerState, string> = {
  closed: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-200',
  open: 'bg-red-100 text-red-800 dark:bg-red-950/60 dark:text-red-200',
  'half-open': 'bg-amber-100 text-amber-900 dark:bg-amber-950/60 dark:text-amber-200',
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

function VendorCard({ vendor }: { vendor: OperatorVendor }) {
  const { t } = useTranslation();
  const reset = useResetVendor();
  return (
    <section
      data-testid={`vendor-${vendor.name}`}
      data-state={vendor.state}
      className="flex flex-col gap-3 rounded-2xl border border-zinc-200 bg-white p-5 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <header className="flex flex-wrap items-center gap-2">
        <h2 className="text-lg font-semibold">{vendor.label}</h2>
        <span
          data-testid="vendor-state"
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ${stateTone[vendor.state]}`}
        >
          {t(`operator.vendors.states.${vendor.state}`)}
        </span>
        {!vendor.configured && (
          <span className="text-xs text-zinc-500 dark:text-zinc-400">
            {t('operator.vendors.notConfigured')}
          </span>
        )}
        {vendor.state !== 'closed' && (
          <Button
            look="outline"
            className="ml-auto"
            data-testid="vendor-reset"
            disabled={reset.isPending}
            onClick={() => reset.mutate(vendor.name)}
          >
            {t('operator.vendors.reset')}
          </Button>
        )}
      </header>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <dt className="text-zinc-500 dark:text-zinc-400">{t('operator.vendors.failures')}</dt>
        <dd className="tabular-nums">{vendor.consecutive_failures}</dd>
        <dt className="text-zinc-500 dark:text-zinc-400">{t('operator.vendors.retryAt')}</dt>
        <dd>{when(vendor.retry_at)}</dd>
        <dt className="text-zinc-500 dark:text-zinc-400">{t('operator.vendors.lastFailure')}</dt>
        <dd>{when(vendor.last_failure_at)}</dd>
        <dt className="text-zinc-500 dark:text-zinc-400">{t('operator.vendors.lastSuccess')}</dt>
        <dd>{when(vendor.last_success_at)}</dd>
      </dl>
      {reset.error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {reset.error.message}
        </p>
      )}
      {vendor.recent_failures.length > 0 && (
        <details>
          <summary className="cursor-pointer text-sm font-medium">
            {t('operator.vendors.recentFailures', { count: vendor.recent_failures.length })}
          </summary>
          <ul className="mt-2 flex flex-col gap-1 text-xs text-zinc-600 dark:text-zinc-400">
            {vendor.recent_failures.map((f, i) => (
              <li key={`${f.at}-${i}`}>
                <time dateTime={f.at}>{when(f.at)}</time> · {f.error}
              </li>
            ))}
          </ul>
        </details>
      )}
      {vendor.models.length > 0 && (
        <div>
          <h3 className="text-sm font-medium">{t('operator.vendors.models')}</h3>
          <ul className="mt-1 flex flex-col gap-1 text-sm">
            {vendor.models.map((m) => (
              <li key={m.id} data-testid="vendor-model">
                <span className="font-medium">{m.display_name}</span>{' '}
                <span className="text-xs text-zinc-500 dark:text-zinc-400">
                  ({t(`operator.vendors.roles.${m.role}`)}) ·{' '}
                  {m.vendors.map((v) => v.provider + (v.configured ? '' : '*')).join(' → ')}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** The operator console's first page: each vendor's circuit breaker, its failures and models. */
export function VendorsView() {
  const { t } = useTranslation();
  const vendors = useVendors();
  if (vendors.isPending) return <LoadingBlock />;
  if (vendors.error) return <QueryError error={vendors.error} onRetry={() => void vendors.refetch()} />;
  const { breaker } = vendors.data;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {t('operator.vendors.rule', { failures: breaker.failures, seconds: breaker.cooldown_seconds })}
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        {vendors.data.vendors.map((v) => (
          <VendorCard key={v.name} vendor={v} />
        ))}
      </div>
    </div>
  );
}
