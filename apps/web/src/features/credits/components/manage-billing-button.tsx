import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { useBillingPortalStatus } from '../api/get-billing-portal-status';
import { useCreatePortalSession } from '../api/create-portal-session';
import { Button } from '@/components/ui/button';

/** Statuses meaning "there is no billing portal for this user (yet)" rather than a passing failure. */
const UNAVAILABLE = new Set([404, 409, 501, 503]);

/**
 * Opens the Stripe Billing portal. The server says beforehand whether there is one for this person
 * (Stripe configured, a Stripe customer made at the first purchase); when there is not, the page says
 * why instead of offering a button that could only reload it.
 */
export function ManageBillingButton({ redirect }: { redirect?: (url: string) => void }) {
  const { t } = useTranslation();
  const status = useBillingPortalStatus();
  const portal = useCreatePortalSession(redirect ? { redirect } : undefined);
  const unavailable = portal.error instanceof ApiError && UNAVAILABLE.has(portal.error.status);
  if (status.data && !status.data.available) {
    return (
      <p
        data-testid="billing-unavailable"
        className="max-w-xs text-xs text-zinc-600 sm:text-right dark:text-zinc-400"
      >
        {status.data.reason ?? t('credits.billing.unavailable')}
      </p>
    );
  }
  return (
    <div className="flex flex-col items-start gap-1.5 sm:items-end">
      <Button
        look="secondary"
        type="button"
        data-testid="manage-billing"
        onClick={() => portal.mutate()}
        disabled={status.isPending || portal.isPending || portal.isSuccess || unavailable}
        className="disabled:cursor-not-allowed disabled:opacity-60"
      >
        {status.isPending
          ? t('credits.billing.checking')
          : portal.isPending
            ? t('credits.billing.opening')
            : t('credits.billing.manage')}
      </Button>
      {portal.error && (
        <p role="status" className="max-w-xs text-xs text-zinc-600 sm:text-right dark:text-zinc-400">
          {portal.error.message}
        </p>
      )}
    </div>
  );
}
