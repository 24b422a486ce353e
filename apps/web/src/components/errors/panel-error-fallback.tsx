import { useTranslation } from 'react-i18next';
import { AlertIcon } from '@/components/ui/icons';

export function PanelErrorFallback({ onRetry }: { onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-2xl border border-red-200 bg-red-50 p-6 text-red-900 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-100"
    >
      <div className="flex items-center gap-2 font-semibold">
        <AlertIcon className="size-5" />
        {t('errors.panelTitle')}
      </div>
      <p className="text-sm text-red-800 dark:text-red-200">{t('errors.panelBody')}</p>
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="rounded-lg bg-red-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-700"
        >
          {t('errors.retry')}
        </button>
      )}
    </div>
  );
}
