import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { AlertIcon } from '@/components/ui/icons';

/**
 * A paid form's action stays on screen: at the bottom of the screen while the form reaches past it on
 * wide screens, a bar along the bottom of the screen on phones (the page leaves room for it).
 */
export function ActionBar({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <div
      data-testid={testId}
      className="flex flex-col gap-3 border-zinc-200 bg-white/95 backdrop-blur max-lg:fixed max-lg:inset-x-0 max-lg:bottom-0 max-lg:z-30 max-lg:border-t max-lg:px-4 max-lg:pt-3 max-lg:pb-[max(0.75rem,env(safe-area-inset-bottom))] max-lg:shadow-[0_-8px_24px_rgba(0,0,0,0.08)] lg:sticky lg:bottom-0 lg:-mx-6 lg:rounded-b-3xl lg:px-6 lg:pt-3 lg:pb-6 dark:border-zinc-800 dark:bg-zinc-900/95"
    >
      {children}
    </div>
  );
}

/** The link to the credits page, as a "not enough credits" message ends. */
export function BuyCreditsLink({ children }: { children: ReactNode }) {
  return (
    <Link to={paths.credits} className="font-semibold underline underline-offset-2">
      {children}
    </Link>
  );
}

/**
 * Says the balance does not cover the cost, with the link to buy credits, both worded by the page:
 * `${page}.notEnough` and `${page}.buyCredits`.
 */
export function NotEnoughCredits({
  page,
  cost,
  balance,
  missing,
}: {
  page: 'generate.form' | 'studio.form' | 'training.form';
  cost: number;
  /** Undefined while loading, shown as 0. */
  balance: number | undefined;
  missing: number;
}) {
  const { t } = useTranslation();
  return (
    <Alert tone="warning" testId="insufficient-credits">
      {t(`${page}.notEnough`, { count: cost, balance: balance ?? 0, missing })}{' '}
      <BuyCreditsLink>{t(`${page}.buyCredits`)}</BuyCreditsLink>
    </Alert>
  );
}

/** Why the request was refused. */
export function RequestError({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Alert tone="error" testId={testId} icon={<AlertIcon className="mt-0.5 size-4 shrink-0" />}>
      {children}
    </Alert>
  );
}
