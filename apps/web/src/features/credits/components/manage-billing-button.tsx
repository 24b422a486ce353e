import { useTranslation } from 'react-i18next';
import { buttonClass } from '@/components/ui/button-link';
import { ApiError } from '@/lib/api-client';
import { useCreatePortalSession } from '../api/create-portal-session';

/** Statuses meaning "there is no billing portal for this user (yet)" rather than a passing failure. */
const UNAVAILABLE = new Set([404, 409, 501, 503]);

/** Opens the Stripe Billing portal; when the server says there is none, the button is disabled with a note. */
export function ManageBillingButton({ redirect }: { redirect?: (url: string) => void }) {
  const { t } = useTranslation();
  const portal = useCreatePortalSession(redirect ? { redirect } : undefined);
  const unavailable = portal.error instanceof ApiError && UNAVAILABLE.has(portal.error.status);
  return (
    <div className="flex flex-col items-start gap-1.5 sm:items-end">
      <button
        type="button"
        data-testid="manage-billing"
        onClick={() => portal.mutate()}
        disabled={portal.isPending || portal.isSuccess || unavailable}
        className={`${buttonClass('secondary')} disabled:cursor-not-allowed disabled:opacity-60`}
      >
        {portal.isPending ? t('credits.billing.opening') : t('credits.billing.manage')}
      </button>
      {portal.error && (
        <p role="status" className="max-w-xs text-xs text-zinc-500 sm:text-right dark:text-zinc-400">
          {unavailable ? t('credits.billing.unavailable') : portal.error.message}
        </p>
      )}
    </div>
  );
}
