import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SecondFactorId } from '@lumina/contracts';
import { ApiError } from '@/lib/api-client';
import { loadSuperTokens } from '@/lib/auth';
import { Spinner } from '@/components/ui/spinner';
import { useSecondFactors, useTurnOffFactor, useTurnOnFactor } from '../api/second-factors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

/**
 * Second factors this page manages, in display order. Only the ones the server offers (`available`) are
 * shown, so a factor the server does not support stays hidden.
 */
const MANAGED_FACTORS = ['totp', 'webauthn', 'otp-email'] as const satisfies readonly SecondFactorId[];
type ManagedFactor = (typeof MANAGED_FACTORS)[number];

/** `on`: asked for at sign-in; `off`: ready but not asked for; `notSetUp`: needs the prebuilt set-up screen first. */
export type FactorState = 'on' | 'off' | 'notSetUp';

const badgeClass: Record<FactorState, string> = {
  on: 'bg-emerald-50 text-emerald-700 dark:bg-emerald-500/10 dark:text-emerald-300',
  off: 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400',
  notSetUp: 'bg-zinc-100 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400',
};

function FactorRow({ factorId, state }: { factorId: ManagedFactor; state: FactorState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const turnOn = useTurnOnFactor();
  const turnOff = useTurnOffFactor((to) => void navigate(to));
  const [opening, setOpening] = useState(false);
  const busy = opening || turnOn.isPending || turnOff.isPending;
  const failure = turnOn.error ?? turnOff.error;
  const setUp = async () => {
    setOpening(true);
    try {
      // The prebuilt set-up screen (/auth/mfa/totp, /auth/mfa/webauthn or /auth/mfa/otp-email) comes back here when done.
      await (await loadSuperTokens()).setUpFactor(factorId, (to) => void navigate(to));
    } finally {
      setOpening(false);
    }
  };
  return (
    <li
      className="flex flex-col gap-3 py-4 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between"
      data-testid={`factor-${factorId}`}
      data-state={state}
    >
      <div className="min-w-0 sm:flex-1">
        <p className="font-medium">{t(`account.factors.${factorId}.title`)}</p>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t(`account.factors.${factorId}.body`)}</p>
      </div>
      <div className="flex shrink-0 items-center gap-3">
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badgeClass[state]}`}>
          {t(`account.factorState.${state}`)}
        </span>
        {state === 'on' && (
          <Button look="secondary" type="button" disabled={busy} onClick={() => turnOff.mutate(factorId)}>
            {t('account.turnOff')}
          </Button>
        )}
        {state === 'off' && (
          <Button look="primary" type="button" disabled={busy} onClick={() => turnOn.mutate(factorId)}>
            {t('account.turnOn')}
          </Button>
        )}
        {state === 'notSetUp' && (
          <Button look="primary" type="button" disabled={busy} onClick={() => void setUp()}>
            {t('account.setUp')}
          </Button>
        )}
      </div>
      {failure && (
        <p role="alert" className="text-sm text-red-600 sm:basis-full dark:text-red-400">
          {failure instanceof ApiError && failure.status < 500 ? failure.detail : t('account.changeFailed')}
        </p>
      )}
    </li>
  );
}

/** The state each managed factor is in, from `GET /api/user/second-factors`. */
export function factorStates(data: {
  enabled: readonly string[];
  available: readonly string[];
  alreadySetup: readonly string[];
}): { factorId: ManagedFactor; state: FactorState }[] {
  return MANAGED_FACTORS.filter((id) => data.available.includes(id)).map((factorId) => ({
    factorId,
    state: data.enabled.includes(factorId) ? 'on' : data.alreadySetup.includes(factorId) ? 'off' : 'notSetUp',
  }));
}

export function TwoStepPanel() {
  const { t } = useTranslation();
  const factors = useSecondFactors();
  const rows = factors.data ? factorStates(factors.data) : [];
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
      ) : factors.isError ? (
        <Alert tone="error" inline className="mt-4">
          {t('account.twoStepLoadFailed')}
        </Alert>
      ) : rows.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-500 dark:text-zinc-400" data-testid="two-step-unavailable">
          {t('account.twoStepUnavailable')}
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-zinc-200 dark:divide-zinc-800">
          {rows.map(({ factorId, state }) => (
            <FactorRow key={factorId} factorId={factorId} state={state} />
          ))}
        </ul>
      )}
    </section>
  );
}
