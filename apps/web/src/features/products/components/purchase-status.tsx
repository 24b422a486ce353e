import { useTranslation } from 'react-i18next';
import type { PurchaseView } from '@lumina/contracts';

const tones: Record<PurchaseView['status'], string> = {
  waiting_for_photos:
    'bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-200 dark:ring-amber-500/30',
  training:
    'bg-brand-50 text-brand-800 ring-brand-200 dark:bg-brand-500/10 dark:text-brand-200 dark:ring-brand-500/30',
  generating:
    'bg-brand-50 text-brand-800 ring-brand-200 dark:bg-brand-500/10 dark:text-brand-200 dark:ring-brand-500/30',
  ready:
    'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-200 dark:ring-emerald-500/30',
  failed: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950/40 dark:text-red-200 dark:ring-red-900/60',
  refunded: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950/40 dark:text-red-200 dark:ring-red-900/60',
};

/** Where a purchase is, in words, with its live progress while it trains or generates. */
export function PurchaseStatus({ purchase }: { purchase: PurchaseView }) {
  const { t } = useTranslation();
  const { status, progress } = purchase;
  const active = status === 'training' || status === 'generating';
  const percent =
    status === 'generating' && progress.images_total > 0
      ? Math.round((progress.images_done / progress.images_total) * 100)
      : progress.percent;
  return (
    <div className="flex flex-col gap-2">
      <p className="flex flex-wrap items-center gap-2">
        <span
          data-testid="purchase-status"
          data-status={status}
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset ${tones[status]}`}
        >
          {t(`products.status.${status}`)}
        </span>
        {active && (
          <span className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="purchase-progress-text">
            {status === 'training'
              ? percent === null
                ? t('products.progress.trainingStarted')
                : t('products.progress.training', { percent })
              : t('products.progress.generating', {
                  done: progress.images_done,
                  total: progress.images_total,
                })}
          </span>
        )}
      </p>
      {active && (
        <div
          role="progressbar"
          aria-label={t(`products.status.${status}`)}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent ?? undefined}
          className="h-2 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
        >
          <div
            className={`h-full rounded-full bg-brand-600 transition-[width] ${percent === null ? 'w-1/3 animate-pulse' : ''}`}
            style={percent === null ? undefined : { width: `${percent}%` }}
          />
        </div>
      )}
      {purchase.error && (status === 'failed' || status === 'refunded') && (
        <p role="alert" data-testid="purchase-error" className="text-sm text-red-700 dark:text-red-300">
          {purchase.error}
        </p>
      )}
    </div>
  );
}
