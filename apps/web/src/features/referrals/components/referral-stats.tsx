import { useTranslation } from 'react-i18next';
import type { ReferralStats as Stats } from '@lumina/contracts';
import { panelClass } from './panel';

/** Visits, sign-ups, completed, credits earned and pending, with the programme's terms under them. */
export function ReferralStats({ stats }: { stats: Stats }) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const cards = [
    { key: 'visits', value: stats.visits },
    { key: 'signups', value: stats.signups },
    { key: 'completed', value: stats.completed },
    { key: 'creditsEarned', value: stats.credits_earned },
    { key: 'creditsPending', value: stats.credits_pending },
  ] as const;
  return (
    <section aria-labelledby="referral-stats-title" className="flex flex-col gap-3">
      <h2 id="referral-stats-title" className="text-lg font-semibold">
        {t('referrals.stats.title')}
      </h2>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        {cards.map((card) => (
          <div key={card.key} className={panelClass} data-testid={`referral-stat-${card.key}`}>
            <dt className="text-sm text-zinc-600 dark:text-zinc-400">{t(`referrals.stats.${card.key}`)}</dt>
            <dd className="mt-1 text-2xl font-bold tabular-nums">{number.format(card.value)}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="referral-terms">
        {t('referrals.stats.terms', {
          reward: number.format(stats.reward_credits),
          welcome: number.format(stats.welcome_credits),
          cap: number.format(stats.monthly_cap),
          used: number.format(stats.rewarded_this_month),
        })}{' '}
        {t('referrals.stats.settling', { days: number.format(stats.settle_days) })}{' '}
        {t('referrals.stats.fairUse')}
      </p>
    </section>
  );
}
