import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadSuperTokens } from '@/lib/auth';
import { buttonClass } from '@/components/ui/button-link';
import { Spinner } from '@/components/ui/spinner';
import { useSecondFactors, useTurnOffTotp } from '../api/second-factors';

/**
 * Second factors this page can manage. Only factors the server offers (in `allowedToSetup` or
 * `alreadySetup`) are shown, so anything the server does not support yet stays hidden.
 */
const MANAGED_FACTORS = ['totp'] as const;

function FactorRow({ factorId, enabled }: { factorId: (typeof MANAGED_FACTORS)[number]; enabled: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const turnOff = useTurnOffTotp();
  const [opening, setOpening] = useState(false);
  const setUp = async () => {
    setOpening(true);
    try {
      await (await loadSuperTokens()).setUpFactor(factorId, (to) => void navigate(to));
    } finally {
      setOpening(false);
    }
  };
  return (
    <li
      className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid={`factor-${factorId}`}
      data-enabled={enabled}
    >
      <div className="min-w-0">
        <p className="font-medium">{t(`account.factors.${factorId}.title`)}</p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`account.factors.${factorId}.body`)}</p>
      </div>
      <div className="flex shrink-0 items-center gap-3">
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${
            enabled
              ? 'bg-emerald-50 text-emerald-700 dark:bg-emerald-500/10 dark:text-emerald-300'
              : 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400'
          }`}
        >
          {enabled ? t('account.factorOn') : t('account.factorOff')}
        </span>
        {enabled ? (
          <button
            type="button"
            className={buttonClass('secondary')}
            disabled={turnOff.isPending}
            onClick={() => turnOff.mutate()}
          >
            {t('account.turnOff')}
          </button>
        ) : (
          <button
            type="button"
            className={buttonClass('primary')}
            disabled={opening}
            onClick={() => void setUp()}
          >
            {t('account.setUp')}
          </button>
        )}
      </div>
      {turnOff.isError && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {t('account.turnOffFailed')}
        </p>
      )}
    </li>
  );
}

export function TwoStepPanel() {
  const { t } = useTranslation();
  const factors = useSecondFactors();
  const offered = MANAGED_FACTORS.filter(
    (id) => factors.data?.allowedToSetup.includes(id) || factors.data?.alreadySetup.includes(id),
  );
  return (
    <section
      aria-labelledby="two-step-heading"
      className="rounded-2xl border border-zinc-200 bg-white p-5 sm:p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id="two-step-heading" className="text-lg font-semibold">
        {t('account.twoStepTitle')}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('account.twoStepBody')}</p>
      {factors.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner />
        </div>
      ) : offered.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-500 dark:text-zinc-400" data-testid="two-step-unavailable">
          {t('account.twoStepUnavailable')}
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800">
          {offered.map((id) => (
            <FactorRow key={id} factorId={id} enabled={factors.data?.alreadySetup.includes(id) ?? false} />
          ))}
        </ul>
      )}
    </section>
  );
}
